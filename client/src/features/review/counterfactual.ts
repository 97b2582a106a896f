import { applyEdit, parseEdit } from '@shared/table/edit';
import type { DataTable } from '@shared/table/model';
import type { EditOutcome } from '../../views/edit-outcome';

/**
 * The item's edit applied to its chart's table with the shared engine (as the verifier did):
 * the table the hypothetical question is about, and what changed.
 */
export function counterfactualOf(table: DataTable, edit: unknown): EditOutcome {
  if (edit === null || edit === undefined) return { kind: 'none' };
  const parsed = parseEdit(edit);
  if (!parsed.ok) return { kind: 'invalid', message: parsed.error.message };
  const applied = applyEdit(table, parsed.edit);
  if (!applied.ok) return { kind: 'invalid', message: applied.error.message };
  const { ok: _ok, ...outcome } = applied;
  return { kind: 'applied', ...outcome };
}
