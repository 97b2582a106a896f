import { describe, expect, it } from 'vitest';
import { buildSalesTable } from '../../test/support/table-fixtures';
import { traceEdit, traceItem } from './trace-item';

const table = buildSalesTable();

describe('traceItem', () => {
  it('keeps every stage of an applied edit: the ops, the edited table and its changes, lint, both program results', () => {
    const trace = traceItem({ table, chartType: 'line', edit: [{ op: 'add', row: '2020', series: 'Online', delta: 2 }, { op: 'add', row: '2020', series: 'Offline', delta: -2 }], program: 'value("2020", "Online")' });
    expect(trace.edit).toMatchObject({
      kind: 'applied',
      edit: [{ op: 'add', row: '2020', series: 'Online', delta: 2 }, { op: 'add', row: '2020', series: 'Offline', delta: -2 }],
      changes: expect.arrayContaining([expect.objectContaining({ row: '2020', series: 'Online' })]),
      added_rows: [],
      removed_rows: [],
      removed_series: [],
    });
    expect(trace.table).not.toBe(table);
    expect(trace.lint).toEqual([]);
    expect(trace.consistency).toBeNull();
    expect(trace.edited).toEqual({ ok: true, value: 22, answer: '22' });
    expect(trace.original).toEqual({ ok: true, value: 20, answer: '20' });
  });

  it('runs the program on the chart’s own table without an edit, and lints nothing', () => {
    const trace = traceItem({ table, chartType: 'line', program: 'value("2020", "Online")' });
    expect(trace).toEqual({ edit: { kind: 'none' }, table, tables: [table], lint: null, consistency: null, edited: { ok: true, value: 20, answer: '20' }, original: null });
  });

  it('reads null as an edit (so a caller chooses its own "no edit"), which is unreadable', () => {
    const trace = traceItem({ table, chartType: 'line', edit: null, program: '1' });
    expect(trace.edit.kind).toBe('unreadable');
    expect(trace.edited).toBeNull();
  });

  it('stops before the program when the edit is unreadable, with nothing to lint', () => {
    const trace = traceItem({ table, chartType: 'line', edit: [{ op: 'explode' }], program: '1' });
    expect(trace).toMatchObject({ edit: { kind: 'unreadable', error: { code: 'invalid_edit' } }, lint: [], table: null, edited: null, original: null });
  });

  it('stops before the program when a readable edit does not apply, linting it with its error', () => {
    const trace = traceItem({ table, chartType: 'line', edit: [{ op: 'set', row: '1999', series: 'Online', value: 1 }], program: '1' });
    expect(trace.edit).toMatchObject({ kind: 'failed', edit: [{ op: 'set', row: '1999' }] });
    expect(trace.edit.kind === 'failed' && trace.edit.error.message).toContain('1999');
    expect(trace.lint?.length).toBeGreaterThan(0);
    expect(trace.edited).toBeNull();
  });

  it('keeps a program error on either table as the program’s result', () => {
    const trace = traceItem({ table, chartType: 'line', edit: [{ op: 'remove_row', row: '2020' }], program: 'value("2020", "Online")' });
    expect(trace.edited).toMatchObject({ ok: false });
    expect(trace.original).toEqual({ ok: true, value: 20, answer: '20' });
  });

  it('checks the edit against the proposal’s operation when there is one', () => {
    const trace = traceItem({
      table,
      chartType: 'line',
      edit: [{ op: 'remove_row', row: '2020' }],
      program: '1',
      proposal: 'Double the Online values',
    });
    expect(trace.consistency).toMatchObject({ consistent: false });
  });
});

describe('traceEdit', () => {
  it('is the trace’s edit stage alone, so a view that runs nothing shows the same edited table', () => {
    const edit = [{ op: 'remove_row', row: '2020' }];
    expect(traceEdit(table, edit)).toEqual(traceItem({ table, chartType: 'line', edit, program: '1' }).edit);
    expect(traceEdit(table, undefined)).toEqual({ kind: 'none' });
    expect(traceEdit(table, [{ op: 'set', row: '1999', series: 'Online', value: 1 }]).kind).toBe('failed');
  });
});
