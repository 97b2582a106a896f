import { describe, expect, it } from 'vitest';
import { buildPieTable, buildSalesTable } from './table-fixtures';
import { VerifierResultSchema, verifyItem } from './verify';

describe('verifyItem', () => {
  it('recomputes the answer on the edited table and matches it under relaxed correctness', () => {
    const result = verifyItem({
      table: buildSalesTable(),
      chartType: 'line',
      edit: [{ op: 'scale', series: 'Online', factor: 2 }],
      program: 'value("2020", "Online")',
      answer: '41',
    });
    expect(result).toEqual({ recomputed_answer: '40', answer_type: 'integer', match: true, lint: [], error: null });
    expect(VerifierResultSchema.parse(result)).toEqual(result);
  });

  it('reports a wrong answer as no match, with lint findings alongside', () => {
    const result = verifyItem({
      table: buildPieTable(),
      chartType: 'pie',
      edit: [{ op: 'set', row: 'Yes', value: 30 }],
      program: 'argmax(series()) == "Yes"',
      answer: 'yes',
    });
    expect(result.recomputed_answer).toBe('No');
    expect(result.answer_type).toBe('boolean');
    expect(result.match).toBe(false);
    expect(result.lint.map((f) => f.code)).toEqual(['pie_sum']);
  });

  it('accepts the edit as JSON text and no edit at all', () => {
    const table = buildSalesTable();
    const asText = verifyItem({ table, chartType: 'line', edit: '[{"op":"add","delta":1}]', program: 'value(2017, "Online")', answer: '11' });
    expect(asText.match).toBe(true);
    const none = verifyItem({ table, chartType: 'line', program: 'value(2017, "Online")', answer: '10' });
    expect(none).toMatchObject({ recomputed_answer: '10', match: true, lint: [] });
    const empty = verifyItem({ table, chartType: 'line', edit: [], program: 'value(2017, "Online")', answer: '10' });
    expect(empty.lint.map((f) => f.code)).toEqual(['no_change']);
  });

  it('stops at an invalid or failing edit, with stage "edit" and lint findings', () => {
    const invalid = verifyItem({ table: buildSalesTable(), chartType: 'line', edit: [{ op: 'double' }], program: '1', answer: '1' });
    expect(invalid).toMatchObject({ recomputed_answer: null, match: null, error: { stage: 'edit' } });
    const unknown = verifyItem({
      table: buildSalesTable(),
      chartType: 'line',
      edit: [{ op: 'set', row: '2030', series: 'Online', value: 1 }],
      program: '1',
      answer: '1',
    });
    expect(unknown.error).toEqual({ stage: 'edit', message: expect.stringContaining('unknown row "2030"') });
    expect(unknown.lint.map((f) => f.code)).toEqual(['unknown_label']);
  });

  it('reports a program error with its position', () => {
    const result = verifyItem({ table: buildSalesTable(), chartType: 'line', edit: null, program: 'sum(series("Retail"))', answer: '3' });
    expect(result).toMatchObject({ recomputed_answer: null, answer_type: 'integer', match: null, error: { stage: 'program', position: 11 } });
    expect(result.error?.message).toMatch(/unknown series "Retail"/);
  });
});
