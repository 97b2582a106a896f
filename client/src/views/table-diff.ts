import type { CellChange } from '@shared/table/edit';
import type { DataTable } from '@shared/table/model';

export type CellStatus = 'same' | 'changed' | 'added' | 'removed';

export interface DiffCell {
  status: CellStatus;
  /** The cell's text in the edited table, or in the original for a removed row or series. */
  raw: string;
  /** The original text of a changed cell. */
  before?: string;
  value: number | null;
}

export interface DiffRow {
  label: string;
  status: 'kept' | 'added' | 'removed';
  cells: DiffCell[];
}

export interface DiffColumn {
  name: string;
  removed: boolean;
}

export interface TableDiff {
  label_header: string;
  columns: DiffColumn[];
  rows: DiffRow[];
}

interface AppliedEdit {
  table: DataTable;
  changes: CellChange[];
  removed_rows: string[];
}

const MISSING_RAW = 'nan';

/**
 * The original and edited tables side by side in one grid: every original column (removed
 * series stay, marked), the edited rows in their order with removed rows back at their
 * original place. Edits never add series and never reorder the rows they keep (add_row
 * inserts, swap moves values, not labels), so one merge walk suffices.
 */
export function diffForDisplay(original: DataTable, applied: AppliedEdit): TableDiff {
  const edited = applied.table;
  const originalIndex = firstIndexMap(original.rows.map((row) => row.label));
  const editedSeries = original.series.map((name) => edited.series.indexOf(name));
  const changed = new Map(applied.changes.map((change) => [cellKey(change.row, change.series), change]));
  const removed = new Set(applied.removed_rows);

  const removedRows = original.rows
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => removed.has(row.label));
  const rows: DiffRow[] = [];
  const flushRemovedBefore = (limit: number) => {
    while (removedRows.length > 0 && (removedRows[0]?.index ?? Infinity) < limit) {
      const next = removedRows.shift();
      if (!next) return;
      rows.push({
        label: next.row.label,
        status: 'removed',
        cells: original.series.map((_, s) => ({ status: 'removed', raw: next.row.raw[s] ?? MISSING_RAW, value: next.row.values[s] ?? null })),
      });
    }
  };

  for (const row of edited.rows) {
    const r = originalIndex.get(row.label);
    const source = r === undefined ? undefined : original.rows[r];
    if (r === undefined || !source) {
      rows.push({
        label: row.label,
        status: 'added',
        cells: original.series.map((_, s) => {
          const e = editedSeries[s] ?? -1;
          return e === -1
            ? { status: 'removed', raw: '', value: null }
            : { status: 'added', raw: row.raw[e] ?? MISSING_RAW, value: row.values[e] ?? null };
        }),
      });
      continue;
    }
    flushRemovedBefore(r);
    rows.push({
      label: row.label,
      status: 'kept',
      cells: original.series.map((name, s): DiffCell => {
        const e = editedSeries[s] ?? -1;
        const before = source.raw[s] ?? MISSING_RAW;
        if (e === -1) return { status: 'removed', raw: before, value: source.values[s] ?? null };
        const raw = row.raw[e] ?? MISSING_RAW;
        const value = row.values[e] ?? null;
        return changed.has(cellKey(row.label, name)) ? { status: 'changed', raw, before, value } : { status: 'same', raw, value };
      }),
    });
  }
  flushRemovedBefore(Infinity);

  return {
    label_header: original.label_header,
    columns: original.series.map((name, s) => ({ name, removed: editedSeries[s] === -1 })),
    rows,
  };
}

function cellKey(row: string, series: string): string {
  return JSON.stringify([row, series]);
}

function firstIndexMap(labels: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  labels.forEach((label, i) => {
    if (!map.has(label)) map.set(label, i);
  });
  return map;
}
