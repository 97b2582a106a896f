import { buildSalesTable } from '../../../test/support/table-fixtures';
import { describe, expect, it } from 'vitest';
import { counterfactualOf } from './counterfactual';

const table = buildSalesTable();

describe('counterfactualOf', () => {
  it('applies a stored edit: the edited table and what changed, without the ops', () => {
    const outcome = counterfactualOf(table, [{ op: 'remove_row', row: '2020' }]);
    expect(outcome).toMatchObject({ kind: 'applied', removed_rows: ['2020'], added_rows: [], removed_series: [] });
    expect(outcome).not.toHaveProperty('edit');
  });

  it('reads a stored null as no edit', () => {
    expect(counterfactualOf(table, null)).toEqual({ kind: 'none' });
  });

  it('says why an edit is unreadable or does not apply', () => {
    expect(counterfactualOf(table, [{ op: 'explode' }]).kind).toBe('invalid');
    expect(counterfactualOf(table, [{ op: 'remove_row', row: '1999' }])).toMatchObject({ kind: 'invalid', message: expect.stringContaining('1999') });
  });
});
