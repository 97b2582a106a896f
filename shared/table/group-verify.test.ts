import { describe, expect, it } from 'vitest';
import { tableFromCells } from './model';
import { traceItem } from './trace-item';
import { verifyItem } from './verify';

// Two charts of one group: a region's sales (chart 1) and its costs (chart 2).
const group = [
  { table: tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12'], ['2021', '15']]), chartType: 'line' as const, title: 'Sales, $m' },
  { table: tableFromCells(['Year', 'Costs'], [['2019', '4'], ['2020', '7'], ['2021', '9']]), chartType: 'vertical_bar' as const, title: 'Costs, $m' },
];
const PROFIT_2020 = 'value(1, "2020", "Sales") - value(2, "2020", "Costs")';

describe('verifying an item over a chart group', () => {
  it('applies the edit to the chart it names and recomputes over the group', () => {
    const result = verifyItem({ group, edit: [{ chart: 2, op: 'scale', row: '2020', factor: 0.5 }], program: PROFIT_2020, answer: '8.5' });
    expect(result).toMatchObject({ recomputed_answer: '8.5', original_answer: '5', match: true, answer_unchanged: false, error: null });
  });

  it('keeps the other charts as they were and says which chart changed', () => {
    const trace = traceItem({ group, edit: [{ chart: 2, op: 'set', row: '2021', value: 20 }], program: 'chart(2, argmax(series()))' });
    expect(trace.edit).toMatchObject({ kind: 'applied', chart: 2, changes: [{ row: '2021', series: 'Costs', before: 9, after: 20 }] });
    expect(trace.tables?.[0]).toBe(group[0]?.table);
    expect(trace.edited).toMatchObject({ ok: true, value: '2021' });
  });

  it('refuses an op that does not name its chart, one that names a chart the group lacks, and an edit over two charts', () => {
    const unnamed = verifyItem({ group, edit: [{ op: 'scale', row: '2020', factor: 2 }], program: PROFIT_2020, answer: '1' });
    expect(unnamed.error?.message).toMatch(/op 0 does not name its chart: this item spans 2 charts/);
    const missing = verifyItem({ group, edit: [{ chart: 3, op: 'scale', row: '2020', factor: 2 }], program: PROFIT_2020, answer: '1' });
    expect(missing.error?.message).toBe('op 0 edits chart 3, but the group has charts 1 to 2');
    const both = verifyItem({ group, edit: [{ chart: 1, op: 'add', row: '2020', delta: 1 }, { chart: 2, op: 'add', row: '2020', delta: 1 }], program: PROFIT_2020, answer: '5' });
    expect(both.error?.message).toMatch(/op 1 edits chart 2 but op 0 edits chart 1: an assumption changes one chart's table/);
  });

  it('lints the edit for the chart type of the chart it edits', () => {
    // The same edit breaks a pie (its slices no longer sum to 100) but not a line of sales.
    const shares = { table: tableFromCells(['Region', 'Share'], [['North', '60'], ['South', '40']]), chartType: 'pie' as const };
    const sales = { table: tableFromCells(['Region', 'Sales'], [['North', '60'], ['South', '40']]), chartType: 'line' as const };
    const edit = (chart: number) => [{ chart, op: 'set', row: 'North', value: 70 }];
    const codes = (chart: number) => verifyItem({ group: [sales, shares], edit: edit(chart), program: `value(${chart}, "North", "${chart === 1 ? 'Sales' : 'Share'}")`, answer: '70' }).lint.map((finding) => finding.code);
    expect(codes(2)).toContain('pie_sum');
    expect(codes(1)).not.toContain('pie_sum');
  });

  it('refuses a chart number on an item over one chart', () => {
    const single = group[0] as (typeof group)[number];
    const result = verifyItem({ table: single.table, chartType: single.chartType, edit: [{ chart: 2, op: 'scale', factor: 2 }], program: 'value("2020")', answer: '24' });
    expect(result.error?.message).toBe('op 0 edits chart 2, but the item has one chart');
    const named = verifyItem({ table: single.table, chartType: single.chartType, edit: [{ chart: 1, op: 'scale', factor: 2 }], program: 'value("2020")', answer: '24' });
    expect(named).toMatchObject({ match: true, error: null });
  });
});
