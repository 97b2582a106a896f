import { describe, expect, it } from 'vitest';
import { applyEdit, diffTables, EditOpSchema, EditSchema, parseEdit, type Edit } from './edit';
import { buildPieTable, buildSalesTable, buildTable } from '../../test/support/table-fixtures';
import type { DataTable } from './model';

function applied(table: DataTable, edit: Edit) {
  const result = applyEdit(table, edit);
  if (!result.ok) throw new Error(`expected the edit to apply: ${result.error.message}`);
  return result;
}

function failed(table: DataTable, edit: Edit) {
  const result = applyEdit(table, edit);
  if (result.ok) throw new Error('expected the edit to fail');
  return result.error;
}

function cell(table: DataTable, row: string, series: string) {
  const r = table.rows.find((candidate) => candidate.label === row);
  const s = table.series.indexOf(series);
  return { value: r?.values[s], raw: r?.raw[s] };
}

describe('EditSchema', () => {
  it('accepts every op in its documented shape', () => {
    const edit = [
      { op: 'set', row: 'A', series: 'S', value: 1 },
      { op: 'set', row: 2019, value: 1 },
      { op: 'scale', factor: 2 },
      { op: 'add', row: 'A', delta: -3 },
      { op: 'swap', rows: ['A', 'B'] },
      { op: 'remove_row', row: 'A' },
      { op: 'remove_series', series: 'S' },
      { op: 'add_row', row: 'C', values: { S: 4 } },
      { op: 'add_row', row: 'D', values: 4 },
    ];
    expect(EditSchema.safeParse(edit).success).toBe(true);
  });

  it('rejects unknown keys, unknown ops and non-finite numbers', () => {
    expect(EditOpSchema.safeParse({ op: 'set', row: 'A', value: 1, serie: 'S' }).success).toBe(false);
    expect(EditOpSchema.safeParse({ op: 'multiply', row: 'A', factor: 2 }).success).toBe(false);
    expect(EditOpSchema.safeParse({ op: 'set', row: 'A', value: Number.POSITIVE_INFINITY }).success).toBe(false);
    expect(EditOpSchema.safeParse({ op: 'swap', rows: ['A'] }).success).toBe(false);
  });

  it('parseEdit reads JSON text and names the failing op', () => {
    expect(parseEdit('[{"op":"scale","factor":2}]')).toEqual({ ok: true, edit: [{ op: 'scale', factor: 2 }] });
    const bad = parseEdit([{ op: 'scale', factor: 2 }, { op: 'set', row: 'A' }]);
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('invalid_edit');
      expect(bad.error.op).toBe(1);
    }
    const notJson = parseEdit('[{op:');
    expect(notJson.ok).toBe(false);
  });
});

describe('applyEdit', () => {
  it('set changes one cell, keeps the % unit in raw and reports the change', () => {
    const table = buildPieTable();
    const result = applied(table, [{ op: 'set', row: 'yes', value: 20 }]);
    expect(cell(result.table, 'Yes', 'Share of respondents')).toEqual({ value: 20, raw: '20%' });
    expect(result.changes).toEqual([{ row: 'Yes', series: 'Share of respondents', before: 16, after: 20 }]);
  });

  it('set needs a series on a multi-series table and lists the series', () => {
    const error = failed(buildSalesTable(), [{ op: 'set', row: '2017', value: 1 }]);
    expect(error.code).toBe('series_required');
    expect(error.message).toContain('"Online", "Offline"');
  });

  it('matches labels ignoring case, spacing and footnote marks, and accepts numeric labels', () => {
    const table = buildSalesTable();
    const result = applied(table, [
      { op: 'set', row: ' 2019 ', series: 'OFFLINE', value: 70 },
      { op: 'set', row: 2020, series: 'online', value: 21 },
    ]);
    expect(cell(result.table, '2019*', 'Offline').value).toBe(70);
    expect(cell(result.table, '2020', 'Online').value).toBe(21);
  });

  it('names the valid labels when a row or series is unknown', () => {
    const row = failed(buildSalesTable(), [{ op: 'set', row: '2016', series: 'Online', value: 1 }]);
    expect(row.code).toBe('unknown_row');
    expect(row.message).toContain('"2017", "2018", "2019*", "2020"');
    const series = failed(buildSalesTable(), [{ op: 'scale', series: 'Retail', factor: 2 }]);
    expect(series.code).toBe('unknown_series');
    expect(series.message).toContain('"Online", "Offline"');
  });

  it('scale with row and series left out scales every cell and leaves missing cells missing', () => {
    const result = applied(buildSalesTable(), [{ op: 'scale', factor: 2 }]);
    expect(result.table.rows.map((row) => row.values)).toEqual([
      [20, 180],
      [25, 175],
      [null, 170],
      [40, 160],
    ]);
    expect(cell(result.table, '2019*', 'Online').raw).toBe('nan');
    expect(result.changes).toHaveLength(7);
  });

  it('scale and add can target one row or one series', () => {
    const byRow = applied(buildSalesTable(), [{ op: 'scale', row: '2018', factor: 0.5 }]);
    expect(byRow.table.rows[1]?.values).toEqual([6.25, 43.75]);
    expect(byRow.table.rows[1]?.raw).toEqual(['6.25', '43.75']);
    const bySeries = applied(buildSalesTable(), [{ op: 'add', series: 'Offline', delta: -5 }]);
    expect(bySeries.table.rows.map((row) => row.values[1])).toEqual([85, 82.5, 80, 75]);
    expect(bySeries.table.rows.map((row) => row.values[0])).toEqual([10, 12.5, null, 20]);
  });

  it('formats edited raw text without float noise', () => {
    const result = applied(buildTable('C|V\nA|0.1'), [{ op: 'add', delta: 0.2 }]);
    expect(result.table.rows[0]?.raw).toEqual(['0.3']);
    expect(result.table.rows[0]?.values[0]).toBeCloseTo(0.3, 12);
  });

  it('swap exchanges values (and raw text) in one series or in all, keeping labels in place', () => {
    const one = applied(buildSalesTable(), [{ op: 'swap', rows: ['2017', '2020'], series: 'Online' }]);
    expect(one.table.rows.map((row) => row.label)).toEqual(['2017', '2018', '2019*', '2020']);
    expect(one.table.rows.map((row) => row.values[0])).toEqual([20, 12.5, null, 10]);
    expect(one.table.rows.map((row) => row.values[1])).toEqual([90, 87.5, 85, 80]);
    const all = applied(buildSalesTable(), [{ op: 'swap', rows: ['2017', '2019'] }]);
    expect(all.table.rows[0]?.values).toEqual([null, 85]);
    expect(all.table.rows[0]?.raw).toEqual(['nan', '85']);
    expect(all.table.rows[2]?.values).toEqual([10, 90]);
  });

  it('remove_row and remove_series drop data and are reported', () => {
    const result = applied(buildSalesTable(), [
      { op: 'remove_row', row: '2017' },
      { op: 'remove_series', series: 'Online' },
    ]);
    expect(result.table.series).toEqual(['Offline']);
    expect(result.table.rows.map((row) => [row.label, ...row.raw])).toEqual([
      ['2018', '87.5'],
      ['2019*', '85'],
      ['2020', '80'],
    ]);
    expect(result.removed_rows).toEqual(['2017']);
    expect(result.removed_series).toEqual(['Online']);
    expect(result.changes).toEqual([]);
  });

  it('refuses to remove the last row or the last series', () => {
    expect(failed(buildTable('C|V\nA|1'), [{ op: 'remove_row', row: 'A' }]).code).toBe('last_row');
    expect(failed(buildPieTable(), [{ op: 'remove_series', series: 'Share of respondents' }]).code).toBe('last_series');
  });

  it('add_row appends a row, formats it like its column and leaves unnamed series missing', () => {
    const result = applied(buildSalesTable(), [{ op: 'add_row', row: '2021', values: { online: 25 } }]);
    const added = result.table.rows.at(-1);
    expect(added).toEqual({ label: '2021', values: [25, null], raw: ['25', 'nan'] });
    expect(result.added_rows).toEqual(['2021']);
    const pie = applied(buildPieTable(), [{ op: 'add_row', row: 'Maybe', values: 4 }]);
    expect(pie.table.rows.at(-1)?.raw).toEqual(['4%']);
  });

  it('add_row puts a row at its place on an ordered axis, and at the end otherwise', () => {
    const labelsAfter = (table: DataTable, edit: Edit) => applied(table, edit).table.rows.map((row) => row.label);
    expect(labelsAfter(buildSalesTable(), [{ op: 'add_row', row: '2016', values: { Online: 1 } }])).toEqual(['2016', '2017', '2018', '2019*', '2020']);
    expect(labelsAfter(buildSalesTable(), [{ op: 'add_row', row: 2018.5, values: { Online: 1 } }])).toEqual(['2017', '2018', '2018.5', '2019*', '2020']);
    const descending = buildTable('C|V\n2019/20*|5\n2018/19|4');
    expect(labelsAfter(descending, [{ op: 'add_row', row: '2020/21', values: 6 }])).toEqual(['2020/21', '2019/20*', '2018/19']);
    expect(labelsAfter(buildPieTable(), [{ op: 'add_row', row: 'Maybe', values: 1 }]).at(-1)).toBe('Maybe');
    expect(labelsAfter(buildSalesTable(), [{ op: 'add_row', row: 'Later', values: { Online: 1 } }]).at(-1)).toBe('Later');
  });

  it('add_row refuses an existing label, an unknown series and a bare number on a multi-series table', () => {
    expect(failed(buildSalesTable(), [{ op: 'add_row', row: '2019', values: { Online: 1 } }]).code).toBe('row_exists');
    expect(failed(buildSalesTable(), [{ op: 'add_row', row: '2021', values: { Retail: 1 } }]).code).toBe('unknown_series');
    expect(failed(buildSalesTable(), [{ op: 'add_row', row: '2021', values: 1 }]).code).toBe('series_required');
  });

  it('applies ops in order, so later ops can name rows earlier ops added', () => {
    const result = applied(buildSalesTable(), [
      { op: 'add_row', row: '2021', values: { Online: 25, Offline: 75 } },
      { op: 'scale', row: '2021', series: 'Online', factor: 2 },
    ]);
    expect(result.table.rows.at(-1)?.values).toEqual([50, 75]);
  });

  it('stops at the first failing op and says which one', () => {
    const error = failed(buildSalesTable(), [
      { op: 'scale', factor: 2 },
      { op: 'remove_row', row: 'nope' },
    ]);
    expect(error.op).toBe(1);
    expect(error.message).toMatch(/^op 2: unknown row "nope"/);
  });

  it('reports a result that overflows as not finite', () => {
    const error = failed(buildTable('C|V\nA|1e300'), [{ op: 'scale', factor: 1e300 }]);
    expect(error.code).toBe('not_finite');
  });

  it('never mutates the input table', () => {
    const table = buildSalesTable();
    const snapshot = structuredClone(table);
    applied(table, [
      { op: 'scale', factor: 3 },
      { op: 'swap', rows: ['2017', '2018'] },
      { op: 'remove_series', series: 'Online' },
      { op: 'add_row', row: '2021', values: 1 },
      { op: 'remove_row', row: '2020' },
    ]);
    failed(table, [{ op: 'set', row: '2017', series: 'Online', value: 1 }, { op: 'set', row: 'x', value: 1 }]);
    expect(table).toEqual(snapshot);
  });
});

describe('diffTables', () => {
  it('lists cells that differ, matching rows and series by label', () => {
    const before = buildSalesTable();
    const after = buildTable(`
      Year | Offline | Online
      2020 | 80      | 21
      2017 | 91      | 10
    `);
    expect(diffTables(before, after)).toEqual([
      { row: '2020', series: 'Online', before: 20, after: 21 },
      { row: '2017', series: 'Offline', before: 90, after: 91 },
    ]);
  });
});
