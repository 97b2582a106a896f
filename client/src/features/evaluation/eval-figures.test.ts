import { parse, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import type { EvalComparisonRow } from '@shared/api/evaluations';
import { answerTypeBars, answerTypeFigure } from './eval-figures';

function row(model: string, by_answer_type: EvalComparisonRow['by_answer_type']): EvalComparisonRow {
  return {
    model,
    hqa_run_id: 1,
    original_run_id: null,
    no_image_run_id: null,
    items: 10,
    hqa_accuracy: 50,
    qa_accuracy: null,
    decline_rate: null,
    no_image_accuracy: null,
    by_answer_type,
    answer_type_variance: null,
    bias_rate: null,
    left_out_different: 0,
  };
}

const ROWS = [
  row('gpt-4o', { integer: 62.5, decimal: 40, boolean: 100, text: null }),
  row('factual-baseline', { integer: 0, decimal: 12.34, boolean: 50, text: null }),
];

describe('the per-answer-type comparison figure', () => {
  it('has one bar per model and answer type, grouped by type, none for a type without items', () => {
    expect(answerTypeBars(ROWS)).toEqual([
      { model: 'gpt-4o', answer_type: 'integer', type_label: 'Integer', accuracy: 62.5 },
      { model: 'factual-baseline', answer_type: 'integer', type_label: 'Integer', accuracy: 0 },
      { model: 'gpt-4o', answer_type: 'decimal', type_label: 'Decimal', accuracy: 40 },
      { model: 'factual-baseline', answer_type: 'decimal', type_label: 'Decimal', accuracy: 12.34 },
      { model: 'gpt-4o', answer_type: 'boolean', type_label: 'Boolean', accuracy: 100 },
      { model: 'factual-baseline', answer_type: 'boolean', type_label: 'Boolean', accuracy: 50 },
    ]);
  });

  it('puts answer types on x, accuracy on y (0–100 %) and models side by side in colour', () => {
    const figure = answerTypeFigure(ROWS);
    if (figure.kind !== 'vega-lite') throw new Error('the comparison is a Vega-Lite spec');
    const { encoding } = figure.spec as { encoding: Record<string, { field?: string; scale?: { domain?: unknown } }> };
    expect(encoding.x?.field).toBe('type_label');
    expect(encoding.y?.field).toBe('accuracy');
    expect(encoding.y?.scale?.domain).toEqual([0, 100]);
    expect(encoding.xOffset?.field).toBe('model');
    expect(encoding.color?.field).toBe('model');
    expect(encoding.color?.scale?.domain).toEqual(['gpt-4o', 'factual-baseline']);
  });

  it('draws under the CSP-safe interpreter: a bar per row, as tall as its accuracy, the models of a type side by side', async () => {
    const figure = answerTypeFigure(ROWS);
    if (figure.kind !== 'vega-lite') throw new Error('the comparison is a Vega-Lite spec');
    const view = new View(parse(compile(figure.spec).spec, undefined, { ast: true }), { renderer: 'none', expr: expressionInterpreter });
    await view.runAsync();
    // The typings leave out the scenegraph's root, which holds the drawn marks.
    const bars = barItems((view.scenegraph() as unknown as { root: SceneNode }).root);
    view.finalize();

    expect(bars).toHaveLength(6);
    const bar = (model: string, type: string) => {
      const found = bars.find((b) => b.datum.model === model && b.datum.answer_type === type);
      if (!found) throw new Error(`no bar for ${model} / ${type}`);
      return found;
    };
    // Heights share one 0–100 scale.
    expect(bar('factual-baseline', 'decimal').height / bar('gpt-4o', 'decimal').height).toBeCloseTo(12.34 / 40);
    expect(bar('gpt-4o', 'boolean').height / bar('factual-baseline', 'boolean').height).toBeCloseTo(2);
    // Within a type the models sit next to each other, before the next type's group.
    const integerGpt = bar('gpt-4o', 'integer');
    const integerBaseline = bar('factual-baseline', 'integer');
    expect(integerBaseline.x).toBeGreaterThanOrEqual(integerGpt.x + integerGpt.width);
    expect(bar('gpt-4o', 'decimal').x).toBeGreaterThan(integerBaseline.x);
  });
});

type SceneNode = { marktype?: string; role?: string; items?: SceneNode[] };
type Bar = { x: number; width: number; height: number; datum: { model: string; answer_type: string } };

/** The rects of the figure's data mark (not axes or legends), wherever they sit in the scenegraph. */
function barItems(node: SceneNode): Bar[] {
  if (node.marktype === 'rect' && node.role === 'mark') return (node.items ?? []) as unknown as Bar[];
  return (node.items ?? []).flatMap(barItems);
}
