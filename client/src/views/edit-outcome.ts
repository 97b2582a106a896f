import type { CellChange } from '@shared/table/edit';
import type { DataTable } from '@shared/table/model';

/**
 * What became of an item's edit on its chart's table: the try-it panel's typed edit and the
 * review page's stored one both end as one of these, which the edited-table view draws.
 */
export type EditOutcome =
  | { kind: 'none' }
  | { kind: 'invalid'; message: string }
  | {
      kind: 'applied';
      table: DataTable;
      changes: CellChange[];
      added_rows: string[];
      removed_rows: string[];
      removed_series: string[];
    };
