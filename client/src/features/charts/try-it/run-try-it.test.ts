import { describe, expect, it } from 'vitest';
import { buildSalesTable } from '../../../../../test/support/table-fixtures';
import { verifyItem } from '@shared/table/verify';
import { runTryIt } from './run-try-it';

const table = buildSalesTable();

describe('runTryIt', () => {
  it('shows the edited table, its changes, the answer on it and the layout lint', () => {
    // Online and Offline are shares of one whole: the 2 points Online gains come from Offline (a step the line has taken before).
    const result = runTryIt(table, 'line', '[{"op":"add","row":"2020","series":"Online","delta":2},{"op":"add","row":"2020","series":"Offline","delta":-2}]', 'value("2020", "Online")');
    expect(result.edit).toMatchObject({ kind: 'applied', added_rows: [], removed_rows: [], removed_series: [] });
    expect(result.edit.kind === 'applied' && result.edit.changes.length).toBeGreaterThan(0);
    expect(result.edit).not.toHaveProperty('edit');
    expect(result.program).toEqual({ kind: 'answer', answer: '22', answer_type: 'integer' });
    expect(result.lint).toEqual([]);
  });

  it('runs the program on the chart’s table without an edit, and lints nothing', () => {
    expect(runTryIt(table, 'line', '  ', 'value("2017", "Offline")')).toEqual({
      edit: { kind: 'none' },
      program: { kind: 'answer', answer: '90', answer_type: 'integer' },
      lint: null,
    });
  });

  it('says where text that is not JSON went wrong, and blocks the program', () => {
    const result = runTryIt(table, 'line', '[{', '1');
    expect(result.edit.kind === 'invalid' && result.edit.message).toMatch(/^the edit is not valid JSON: /);
    expect(result.program).toEqual({ kind: 'blocked' });
    expect(result.lint).toEqual([]);
  });

  it('reads typed `null` as an edit, which is invalid (not as no edit)', () => {
    expect(runTryIt(table, 'line', 'null', '').edit.kind).toBe('invalid');
  });

  it('gives the verifier’s edit error and lint when the edit does not apply', () => {
    const edit = [{ op: 'set', row: '1999', series: 'Online', value: 1 }];
    const result = runTryIt(table, 'line', JSON.stringify(edit), 'value("2020", "Online")');
    const verdict = verifyItem({ table, chartType: 'line', edit, program: 'value("2020", "Online")', answer: '1' });
    expect(result.edit).toEqual({ kind: 'invalid', message: verdict.error?.message });
    expect(result.lint).toEqual(verdict.lint);
    expect(result.program).toEqual({ kind: 'blocked' });
  });

  it('shows a program error with its position, and an empty program as empty', () => {
    expect(runTryIt(table, 'line', '', 'value(').program).toMatchObject({ kind: 'error', position: expect.any(Number) });
    expect(runTryIt(table, 'line', '', ' ').program).toEqual({ kind: 'empty' });
  });
});
