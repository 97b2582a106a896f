import type { Edit, EditError } from './edit';

/**
 * Which chart an edit changes. An item over a chart group names the chart on every op
 * (`{"chart": 2, "op": "scale", …}`) and changes one chart's table: the hypothesis is about
 * one chart, and the question relates the charts. A single chart's ops may leave `chart` out
 * or say 1. Every refusal names the op, so a model's repair prompt can point at it.
 */
export function editedChart(edit: Edit, chartCount: number): { ok: true; chart: number } | { ok: false; error: EditError } {
  let chart: number | null = null;
  let firstOp = -1;
  for (const [index, op] of edit.entries()) {
    const named = op.chart;
    if (named === undefined) {
      if (chartCount === 1) continue;
      return fail('chart_required', index, `op ${index} does not name its chart: this item spans ${chartCount} charts, so every op says which one it edits ("chart": 1 to ${chartCount})`);
    }
    if (named > chartCount) {
      const there = chartCount === 1 ? 'the item has one chart' : `the group has charts 1 to ${chartCount}`;
      return fail('unknown_chart', index, `op ${index} edits chart ${named}, but ${there}`);
    }
    if (chart !== null && named !== chart) {
      return fail('several_charts', index, `op ${index} edits chart ${named} but op ${firstOp} edits chart ${chart}: an assumption changes one chart's table`);
    }
    chart = named;
    if (firstOp === -1) firstOp = index;
  }
  return { ok: true, chart: chart ?? 1 };
}

function fail(code: EditError['code'], op: number, message: string): { ok: false; error: EditError } {
  return { ok: false, error: { code, op, message } };
}
