import type { CellChange } from '@shared/table/edit';
import type { DataTable } from '@shared/table/model';
import type { EditTrace } from '@shared/table/trace-item';

/**
 * What became of an item's edit on its chart's table: the try-it panel's typed edit and the
 * review page's stored one both end as one of these, which the edited-table view draws.
 */
export type EditOutcome =
  | { kind: 'none' }
  | { kind: 'invalid'; message: string }
  | {
      kind: 'applied';
      /** The chart the edit changed: its 1-based position in the item's group (1 for a single chart). */
      chart: number;
      table: DataTable;
      changes: CellChange[];
      added_rows: string[];
      removed_rows: string[];
      removed_series: string[];
    };

/** An edit's trace as the views draw it: an edit that is unreadable or does not apply is invalid, with its error. */
export function editOutcomeOf(traced: EditTrace): EditOutcome {
  if (traced.kind === 'none') return traced;
  if (traced.kind !== 'applied') return { kind: 'invalid', message: traced.error.message };
  const { edit: _ops, ...outcome } = traced;
  return outcome;
}
