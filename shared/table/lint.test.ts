import { describe, expect, it } from 'vitest';
import type { ChartType } from '../domain/chart-types';
import { applyEdit, type Edit } from './edit';
import { LINT_CODES, lintEdit, type LintCode } from './lint';
import type { DataTable } from './model';
import { buildPieTable, buildSalesTable, buildTable } from '../../test/support/table-fixtures';

/** Applies the edit as the verifier does and lints the outcome. */
function lint(chartType: ChartType, table: DataTable, edit: Edit) {
  const result = applyEdit(table, edit);
  return result.ok ? lintEdit(chartType, table, result.table, edit) : lintEdit(chartType, table, null, edit, [result.error]);
}

function codes(chartType: ChartType, table: DataTable, edit: Edit): LintCode[] {
  return lint(chartType, table, edit).map((finding) => finding.code);
}

const stacked = () =>
  buildTable(`
    Characteristic | Offline sales | Online sales
    2013           | 93.2%         | 6.8%
    2018*          | 89%           | 11%
  `);
const counts = () =>
  buildTable(`
    Characteristic | Number of students
    2019/20*       | 509473
    2018/19        | 519462
    2017/18        | 522059
  `);
const scores = () =>
  buildTable(`
    Characteristic | ACSI score
    2020           | 72
    2019           | 70
    2018           | 70
  `);

describe('lintEdit', () => {
  it('exports its codes as a const list', () => {
    expect(LINT_CODES).toContain('pie_sum');
    expect(new Set(LINT_CODES).size).toBe(LINT_CODES.length);
  });

  it('pie_sum: slices that summed to 100 must still do so', () => {
    expect(codes('pie', buildPieTable(), [{ op: 'set', row: 'Yes', value: 30 }])).toContain('pie_sum');
    expect(lint('pie', buildPieTable(), [{ op: 'set', row: 'Yes', value: 30 }]).find((f) => f.code === 'pie_sum')?.message).toMatch(/sum to 114/);
    expect(codes('pie', buildPieTable(), [{ op: 'swap', rows: ['Yes', 'No, but I plan to soon'] }])).not.toContain('pie_sum');
    expect(
      codes('pie', buildPieTable(), [
        { op: 'add', row: 'Yes', delta: 5 },
        { op: 'add', row: "No, and I don't plan to", delta: -5 },
      ]),
    ).toEqual([]);
  });

  it('pie_sum: silent when the original slices did not sum to 100, or the chart is not a pie', () => {
    const partial = buildTable('C|Share\nA|30%\nB|20%');
    expect(codes('pie', partial, [{ op: 'set', row: 'A', value: 40 }])).not.toContain('pie_sum');
    expect(codes('vertical_bar', buildPieTable(), [{ op: 'set', row: 'Yes', value: 30 }])).not.toContain('pie_sum');
  });

  it('stacked_row_sum: rows of a 100% stacked bar must still sum to 100', () => {
    const found = lint('stacked_bar', stacked(), [{ op: 'scale', series: 'Online sales', factor: 2 }]);
    expect(found.map((f) => f.code)).toContain('stacked_row_sum');
    expect(found.find((f) => f.code === 'stacked_row_sum')?.message).toMatch(/"2013" sums to 106.8, "2018\*" sums to 111/);
    expect(
      codes('stacked_bar', stacked(), [
        { op: 'set', row: '2013', series: 'Online sales', value: 10 },
        { op: 'set', row: '2013', series: 'Offline sales', value: 90 },
      ]),
    ).toEqual([]);
    expect(codes('stacked_bar', buildSalesTable(), [{ op: 'scale', factor: 2 }])).not.toContain('stacked_row_sum');
  });

  it('share_out_of_range: % columns and pie slices stay within 0–100', () => {
    expect(codes('grouped_bar', stacked(), [{ op: 'add', series: 'Online sales', delta: -10 }])).toContain('share_out_of_range');
    expect(codes('pie', buildTable('C|V\nA|60\nB|40'), [{ op: 'set', row: 'A', value: 160 }])).toContain('share_out_of_range');
    expect(codes('grouped_bar', stacked(), [{ op: 'add', series: 'Online sales', delta: 5 }])).not.toContain('share_out_of_range');
    expect(codes('vertical_bar', buildTable('C|V\nA|60\nB|40'), [{ op: 'set', row: 'A', value: 160 }])).not.toContain('share_out_of_range');
  });

  it('count_negative and count_not_integer: counts stay non-negative whole numbers', () => {
    expect(codes('vertical_bar', counts(), [{ op: 'add', row: '2018/19', delta: -600000 }])).toContain('count_negative');
    const halves = lint('vertical_bar', counts(), [{ op: 'scale', row: '2018/19', factor: 1.1 }]);
    expect(halves.map((f) => [f.code, f.severity])).toEqual([['count_not_integer', 'error']]);
    expect(codes('vertical_bar', counts(), [{ op: 'scale', factor: 2 }])).toEqual([]);
    // A score is a whole number but not a count: no finding.
    expect(codes('vertical_bar', scores(), [{ op: 'add', delta: -80.5 }])).toEqual([]);
  });

  it('unknown_label: every unknown name is reported with the valid ones, even after the first', () => {
    const found = lint('line', buildSalesTable(), [
      { op: 'set', row: '2016', series: 'Online', value: 1 },
      { op: 'scale', series: 'Retail', factor: 2 },
      { op: 'add_row', row: '2021', values: { Online: 1 } },
      { op: 'set', row: '2021', series: 'Online', value: 2 },
    ]);
    const unknown = found.filter((f) => f.code === 'unknown_label');
    expect(unknown).toHaveLength(2);
    expect(unknown[0]?.message).toMatch(/^op 1 \(set\): unknown row "2016"; the rows are "2017", "2018", "2019\*", "2020"/);
    expect(unknown[1]?.message).toMatch(/^op 2 \(scale\): unknown series "Retail"; the series are "Online", "Offline"/);
    expect(codes('line', buildSalesTable(), [{ op: 'set', row: '2019', series: 'offline', value: 1 }])).not.toContain('unknown_label');
  });

  it('no_change: an edit that leaves the table as it was', () => {
    expect(codes('line', buildSalesTable(), [])).toEqual(['no_change']);
    expect(codes('line', buildSalesTable(), [{ op: 'scale', factor: 1 }])).toEqual(['no_change']);
    expect(codes('line', buildSalesTable(), [{ op: 'set', row: '2017', series: 'Online', value: 10 }])).toEqual(['no_change']);
    expect(codes('line', buildSalesTable(), [{ op: 'set', row: '2017', series: 'Online', value: 11 }])).toEqual([]);
  });

  it('removes_last_row and removes_last_series', () => {
    const oneRow = buildTable('C|A|B\nX|1|2');
    expect(codes('grouped_bar', oneRow, [{ op: 'remove_row', row: 'X' }])).toEqual(['removes_last_row']);
    expect(codes('grouped_bar', oneRow, [{ op: 'remove_series', series: 'A' }, { op: 'remove_series', series: 'B' }])).toEqual(['removes_last_series']);
    expect(codes('grouped_bar', buildSalesTable(), [{ op: 'remove_row', row: '2017' }])).toEqual([]);
  });

  it('x_order_broken: a line chart over years keeps its order', () => {
    const later = lint('line', buildSalesTable(), [{ op: 'add_row', row: 'Later', values: { Online: 5, Offline: 95 } }]);
    expect(later).toEqual([{ code: 'x_order_broken', severity: 'warning', message: expect.stringMatching(/ascending order, but "Later" now break/) }]);
    expect(codes('area', counts(), [{ op: 'add_row', row: '2019', values: 500000 }])).toEqual(['x_order_broken']);
    // add_row puts a year at its place, so these keep the order.
    expect(codes('line', buildSalesTable(), [{ op: 'add_row', row: '2015', values: { Online: 5, Offline: 95 } }])).toEqual([]);
    expect(codes('line', counts(), [{ op: 'add_row', row: '2020/21', values: 500000 }])).toEqual([]);
    expect(codes('line', buildSalesTable(), [{ op: 'swap', rows: ['2017', '2020'] }])).toEqual([]);
    expect(codes('vertical_bar', buildSalesTable(), [{ op: 'add_row', row: 'Later', values: { Online: 5, Offline: 95 } }])).toEqual([]);
    expect(codes('line', buildTable('C|V\nRed|1\nBlue|2'), [{ op: 'add_row', row: 'Green', values: 3 }])).toEqual([]);
  });

  it('edit_error: other apply failures are passed through', () => {
    const found = lint('grouped_bar', buildSalesTable(), [{ op: 'set', row: '2017', value: 1 }]);
    expect(found.map((f) => f.code)).toEqual(['edit_error']);
    expect(found[0]?.message).toMatch(/name a series/);
  });
});
