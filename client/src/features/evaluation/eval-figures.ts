import type { EvalComparisonRow } from '@shared/api/evaluations';
import { ANSWER_TYPES, type AnswerType } from '@shared/table/answers';
import { FIGURE_FONT, type FigureSpec } from '../../ui/vega/figure-spec';
import { ANSWER_TYPE_LABELS } from './eval-format';

/** The evaluation figures as specs, built from the comparison alone (pure: same rows, same figure). */

const BAR_CHART_HEIGHT_PX = 240;

/** One bar: a model's accuracy on one answer type. */
export type AnswerTypeBar = { model: string; answer_type: AnswerType; type_label: string; accuracy: number };

/**
 * The bars of the per-answer-type comparison, in answer-type order then model order. A type a
 * model had no items of has no accuracy and so no bar (drawing 0 would claim it got all wrong).
 */
export function answerTypeBars(rows: readonly EvalComparisonRow[]): AnswerTypeBar[] {
  return ANSWER_TYPES.flatMap((type) =>
    rows.flatMap((row) => {
      const accuracy = row.by_answer_type[type];
      return accuracy === null ? [] : [{ model: row.model, answer_type: type, type_label: ANSWER_TYPE_LABELS[type], accuracy }];
    }),
  );
}

/** Table 4 as a grouped bar chart: answer types along x, one bar per model in each group. */
export function answerTypeFigure(rows: readonly EvalComparisonRow[]): FigureSpec {
  const models = rows.map((row) => row.model);
  return {
    kind: 'vega-lite',
    spec: {
      width: 'container',
      height: BAR_CHART_HEIGHT_PX,
      data: { values: answerTypeBars(rows) },
      mark: { type: 'bar', tooltip: true },
      encoding: {
        x: {
          field: 'type_label',
          type: 'nominal',
          title: 'Answer type',
          // Every type keeps its place, so figures of different runs line up.
          sort: ANSWER_TYPES.map((type) => ANSWER_TYPE_LABELS[type]),
          scale: { domain: ANSWER_TYPES.map((type) => ANSWER_TYPE_LABELS[type]) },
          axis: { labelAngle: 0 },
        },
        xOffset: { field: 'model', type: 'nominal', scale: { domain: models } },
        y: { field: 'accuracy', type: 'quantitative', title: 'Relaxed accuracy (%)', scale: { domain: [0, 100] } },
        color: { field: 'model', type: 'nominal', title: 'Model', scale: { domain: models, scheme: 'tableau10' } },
        tooltip: [
          { field: 'model', type: 'nominal', title: 'Model' },
          { field: 'type_label', type: 'nominal', title: 'Answer type' },
          { field: 'accuracy', type: 'quantitative', title: 'Accuracy (%)', format: '.2f' },
        ],
      },
      config: { font: FIGURE_FONT, view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 11 } },
    },
  };
}
