import { useMemo } from 'react';
import { HIGHLIGHT_NOTE, type ChartHighlight } from '@shared/chart-spec/highlight';
import { comparedValueDomain, type ValueDomain } from '@shared/chart-spec/value-domain';
import { tooLargeToDraw } from '@shared/chart-spec/drawing-limit';
import type { ReviewTask } from '@shared/api/review';
import { DrawnChartNote } from '../ui/drawn-chart-note';
import type { DrawingSize } from '../ui/vega/drawing-size';
import type { FigureSpec } from '../ui/vega/figure-spec';
import { CounterfactualChart, drawnChartFigure } from './counterfactual-chart';
import type { EditOutcome } from './edit-outcome';

type AppliedEdit = Extract<EditOutcome, { kind: 'applied' }>;
type ComparedChartSource = Pick<ReviewTask['chart'], 'data_table' | 'chart_type' | 'drawing_style' | 'title' | 'imgname'>;

/**
 * How the counterfactual and the original drawn from its table are drawn alike, to be compared
 * mark for mark: one value axis covering both tables, and the marks the edit changed outlined
 * in both (in the original, where they were before the edit).
 */
export type ChartComparison = { valueDomain: ValueDomain | null; highlight: ChartHighlight };

export function chartComparison(chart: ComparedChartSource, edit: AppliedEdit): ChartComparison {
  return {
    valueDomain: comparedValueDomain([chart.data_table, edit.table], chart.chart_type, chart.drawing_style),
    highlight: { cells: edit.changes, rows: edit.added_rows },
  };
}

/**
 * The two drawings a reviewer compares (the counterfactual, and the original table behind `t`),
 * as CounterfactualChart builds them at `size`: what the review screen draws ahead for the next item.
 */
export function comparedFigures(chart: ComparedChartSource, edit: AppliedEdit, size: DrawingSize): FigureSpec[] {
  const { valueDomain, highlight } = chartComparison(chart, edit);
  const options = { chartType: chart.chart_type, title: chart.title, style: chart.drawing_style, valueDomain, highlight };
  // A table past the drawing limit is not drawn when shown either (CounterfactualChart), so none is drawn ahead.
  return [edit.table, chart.data_table].filter((table) => tooLargeToDraw(table) === null).map((table) => drawnChartFigure(table, options, size));
}

type ComparedChartProps = {
  itemId: number;
  chart: ComparedChartSource;
  edit: AppliedEdit;
  /** Which table is drawn: the edited one (the counterfactual) or the chart's own. */
  drawn: 'counterfactual' | 'original';
  label: string;
  testId: string;
};

/** One of the two drawings compared (see chartComparison), with what its outlines mean said under it. */
export function ComparedChart({ itemId, chart, edit, drawn, label, testId }: ComparedChartProps) {
  const { valueDomain, highlight } = useMemo(() => chartComparison(chart, edit), [chart, edit]);
  const outlined = highlight.cells.length > 0 || highlight.rows.length > 0;
  return (
    <>
      <CounterfactualChart
        key={itemId}
        table={drawn === 'counterfactual' ? edit.table : chart.data_table}
        chartType={chart.chart_type}
        title={chart.title}
        style={chart.drawing_style}
        valueDomain={valueDomain}
        highlight={highlight}
        label={label}
        testId={testId}
      />
      {outlined && (
        <p className="muted small highlight-note" data-testid="highlight-note">
          <span className="highlight-swatch" aria-hidden="true" /> {HIGHLIGHT_NOTE}
        </p>
      )}
      <DrawnChartNote />
    </>
  );
}
