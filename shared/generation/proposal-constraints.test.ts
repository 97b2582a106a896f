import { describe, expect, it } from 'vitest';
import { buildTable } from '../../test/support/table-fixtures';
import { verifyItem } from '../table/verify';
import { CONSTRAINT_CLAUSES, readConstraints } from './proposal-constraints';
import { parseIntent } from './proposal-intent';

const bars = buildTable(`
  Country | Share of respondents
  Spain | 41%
  Italy | 35%
  France | 28%
  Germany | 19%
`);

function codes(proposal: string, edit: unknown, program: string, assumption = 'Suppose a change.') {
  return verifyItem({ table: bars, chartType: 'vertical_bar', edit, program, answer: '', assumption, proposal }).lint.filter((finding) => finding.code === 'proposal_constraint');
}

describe('constraints a revised proposal carries', () => {
  it('are read back from the text, and leave the operation to intent.ts', () => {
    const text = `Triple the value of the smallest bar, ${CONSTRAINT_CLAUSES.bounded_change}, ${CONSTRAINT_CLAUSES.answer_unnamed}.`;
    expect(readConstraints(text).constraints).toEqual(['bounded_change', 'answer_unnamed']);
    // "by more than 20 percent" in the clause is no factor of the operation: tripling stays ×3, bounded to 0.2.
    expect(parseIntent(text)).toMatchObject({ kind: 'scale', factor: 3, maxChange: 0.2 });
    expect(parseIntent('Triple the value of the smallest bar.')).toMatchObject({ kind: 'scale', factor: 3, maxChange: null });
  });

  it('bounded_change: a share may move 5 points, and no more', () => {
    const proposal = `Raise the smallest bar, ${CONSTRAINT_CLAUSES.bounded_change}.`;
    expect(codes(proposal, [{ op: 'add', row: 'Germany', delta: 5 }], 'value("Germany")')).toEqual([]);
    expect(codes(proposal, [{ op: 'add', row: 'Germany', delta: 8 }], 'value("Germany")')[0]?.message).toMatch(/"Germany".*from 19 to 27/);
  });

  it('not_asked_value: no set of a cell the question reads by name; a cell among a series the reader compares is fine', () => {
    const proposal = `Set the smallest bar equal to the largest, ${CONSTRAINT_CLAUSES.not_asked_value}.`;
    expect(codes(proposal, [{ op: 'set', row: 'Germany', value: 41 }], 'value("Germany")')).toHaveLength(1);
    expect(codes(proposal, [{ op: 'set', row: 'Germany', value: 40 }], 'argmax(series())')).toEqual([]);
  });

  it('answer_unnamed: the assumption may not name a label answer', () => {
    const proposal = `Raise the smallest bar until it becomes the largest, ${CONSTRAINT_CLAUSES.answer_unnamed}.`;
    const edit = [{ op: 'add', row: 'Germany', delta: 26 }];
    expect(codes(proposal, edit, 'argmax(series())', 'Suppose the share of Germany rose by 26 points.')).toHaveLength(1);
    expect(codes(proposal, [{ op: 'add', row: 'Spain', delta: -10 }], 'argmax(series())', 'Suppose the share of Spain fell by 10 points.')).toEqual([]);
  });

  it('keep_whole: a column that summed to 100 must still, shares or not', () => {
    const votes = buildTable(`
      Answer | Value
      Increase | 30
      Same | 31
      Decrease | 39
    `);
    const proposal = `Double the smallest slice, ${CONSTRAINT_CLAUSES.keep_whole}.`;
    const lint = (edit: unknown) => verifyItem({ table: votes, chartType: 'vertical_bar', edit, program: 'value("Increase")', answer: '', proposal }).lint.map((f) => f.code);
    expect(lint([{ op: 'scale', row: 'Increase', factor: 2 }])).toContain('proposal_constraint');
    expect(lint([{ op: 'add', row: 'Increase', delta: 9 }, { op: 'add', row: 'Decrease', delta: -9 }])).not.toContain('proposal_constraint');
  });

  it('single_answer: no tie for the answer', () => {
    const proposal = `Set the second-largest bar equal to the largest, ${CONSTRAINT_CLAUSES.single_answer}.`;
    expect(codes(proposal, [{ op: 'set', row: 'Italy', value: 41 }], 'argmax(series())')).toHaveLength(1);
    expect(codes(proposal, [{ op: 'set', row: 'Italy', value: 40 }], 'argmax(series())')).toEqual([]);
  });
});
