import type { CellChange, Edit, EditError, EditErrorCode, EditOp, Label } from './edit';
import { insertionIndex } from './axis-order';
import { columnStyle, formatCellRaw } from './cell-format';
import { findLabelIndex, unknownLabelMessage } from './labels';
import type { DataTable } from './model';

/** Missing cells created by an edit are written the way ChartQA writes them. */
const MISSING_RAW = 'nan';

export type ApplyEditResult =
  | {
      ok: true;
      table: DataTable;
      /** Cells in both tables whose value differs, in edited-table order: what a UI highlights. */
      changes: CellChange[];
      added_rows: string[];
      removed_rows: string[];
      removed_series: string[];
    }
  | { ok: false; error: EditError };

/** Unwinds from deep inside an op to applyEdit, which turns it into the typed error. */
class EditFailure extends Error {
  constructor(readonly detail: EditError) {
    super(detail.message);
  }
}

/**
 * Applies the ops in order to a copy of `table` (the input is never mutated). The first
 * failing op stops the edit: later ops may name rows the failed op would have created.
 */
export function applyEdit(table: DataTable, edit: Edit): ApplyEditResult {
  const work = cloneTable(table);
  try {
    edit.forEach((op, index) => applyOp(work, op, index));
  } catch (error) {
    if (error instanceof EditFailure) return { ok: false, error: error.detail };
    throw error;
  }
  const originalRows = new Set(table.rows.map((row) => row.label));
  const editedRows = new Set(work.rows.map((row) => row.label));
  const editedSeries = new Set(work.series);
  return {
    ok: true,
    table: work,
    changes: diffTables(table, work),
    added_rows: [...editedRows].filter((label) => !originalRows.has(label)),
    removed_rows: [...originalRows].filter((label) => !editedRows.has(label)),
    removed_series: table.series.filter((name) => !editedSeries.has(name)),
  };
}

/** The cells present in both tables (matched by exact label) whose values differ. */
export function diffTables(original: DataTable, edited: DataTable): CellChange[] {
  const rowIndex = firstIndexMap(original.rows.map((row) => row.label));
  const seriesIndex = firstIndexMap(original.series);
  const changes: CellChange[] = [];
  for (const row of edited.rows) {
    const originalRow = original.rows[rowIndex.get(row.label) ?? -1];
    if (!originalRow) continue;
    edited.series.forEach((name, s) => {
      const before = originalRow.values[seriesIndex.get(name) ?? -1];
      const after = row.values[s] ?? null;
      if (before === undefined || before === after) return;
      changes.push({ row: row.label, series: name, before, after });
    });
  }
  return changes;
}

function applyOp(work: DataTable, op: EditOp, index: number): void {
  switch (op.op) {
    case 'set': {
      const r = resolveRow(work, op.row, index);
      const [s = 0] = resolveSeries(work, op.series, index, 'single');
      setCell(work, r, s, op.value, index);
      return;
    }
    case 'scale':
    case 'add': {
      const rows = op.row === undefined ? work.rows.map((_, r) => r) : [resolveRow(work, op.row, index)];
      const series = resolveSeries(work, op.series, index, 'all');
      for (const r of rows) {
        for (const s of series) {
          const current = work.rows[r]?.values[s] ?? null;
          // Missing cells stay missing: there is no value to scale or shift.
          if (current === null) continue;
          setCell(work, r, s, op.op === 'scale' ? current * op.factor : current + op.delta, index);
        }
      }
      return;
    }
    case 'swap': {
      const a = work.rows[resolveRow(work, op.rows[0], index)];
      const b = work.rows[resolveRow(work, op.rows[1], index)];
      if (!a || !b) return;
      for (const s of resolveSeries(work, op.series, index, 'all')) {
        [a.values[s], b.values[s]] = [b.values[s] ?? null, a.values[s] ?? null];
        [a.raw[s], b.raw[s]] = [b.raw[s] ?? MISSING_RAW, a.raw[s] ?? MISSING_RAW];
      }
      return;
    }
    case 'remove_row': {
      const r = resolveRow(work, op.row, index);
      if (work.rows.length === 1) fail('last_row', index, `cannot remove ${quote(op.row)}: it is the table's last row`);
      work.rows.splice(r, 1);
      return;
    }
    case 'remove_series': {
      const [s = 0] = resolveSeries(work, op.series, index, 'single');
      if (work.series.length === 1) fail('last_series', index, `cannot remove ${quote(op.series)}: it is the table's last series`);
      work.series.splice(s, 1);
      for (const row of work.rows) {
        row.values.splice(s, 1);
        row.raw.splice(s, 1);
      }
      return;
    }
    case 'add_row':
      addRow(work, op, index);
      return;
  }
}

function addRow(work: DataTable, op: Extract<EditOp, { op: 'add_row' }>, index: number): void {
  const label = labelText(op.row);
  if (findLabelIndex(work.rows.map((row) => row.label), label) !== -1) {
    fail('row_exists', index, `row ${quote(label)} already exists; use "set" to change its values`);
  }
  const values: (number | null)[] = work.series.map(() => null);
  if (typeof op.values === 'number') {
    const [s = 0] = resolveSeries(work, undefined, index, 'single');
    values[s] = op.values;
  } else {
    for (const [name, value] of Object.entries(op.values)) {
      const [s = 0] = resolveSeries(work, name, index, 'single');
      values[s] = value;
    }
  }
  const raw = values.map((value, s) =>
    value === null ? MISSING_RAW : formatCellRaw(value, columnStyle(work.rows.map((row) => row.raw[s] ?? ''))),
  );
  work.rows.splice(insertionIndex(work.rows.map((row) => row.label), label), 0, { label, values, raw });
}

function setCell(work: DataTable, r: number, s: number, value: number, index: number): void {
  const row = work.rows[r];
  if (!row) return;
  const series = work.series[s] ?? '';
  if (!Number.isFinite(value)) {
    fail('not_finite', index, `the new value of ${quote(row.label)} / ${quote(series)} is not a finite number`);
  }
  row.values[s] = value;
  row.raw[s] = formatCellRaw(value, columnStyle(work.rows.map((other) => other.raw[s] ?? '')));
}

function resolveRow(work: DataTable, label: Label, index: number): number {
  const labels = work.rows.map((row) => row.label);
  const r = findLabelIndex(labels, labelText(label));
  if (r === -1) fail('unknown_row', index, unknownLabelMessage('row', labelText(label), labels));
  return r;
}

/**
 * The series an op addresses. Left out, it means every series for ops that say so ('all'),
 * or the only series of a single-series table ('single').
 */
function resolveSeries(work: DataTable, label: Label | undefined, index: number, whenOmitted: 'all' | 'single'): number[] {
  if (label === undefined) {
    if (whenOmitted === 'all' || work.series.length === 1) return work.series.map((_, s) => s);
    fail('series_required', index, `name a series: the table has several (${work.series.map((name) => JSON.stringify(name)).join(', ')})`);
  }
  const s = findLabelIndex(work.series, labelText(label));
  if (s === -1) fail('unknown_series', index, unknownLabelMessage('series', labelText(label), work.series));
  return [s];
}

function fail(code: EditErrorCode, op: number, message: string): never {
  throw new EditFailure({ code, op, message: `op ${op + 1}: ${message}` });
}

export function labelText(label: Label): string {
  return typeof label === 'number' ? String(label) : label;
}

function quote(label: Label): string {
  return JSON.stringify(labelText(label));
}

function cloneTable(table: DataTable): DataTable {
  return {
    label_header: table.label_header,
    series: [...table.series],
    rows: table.rows.map((row) => ({ label: row.label, values: [...row.values], raw: [...row.raw] })),
  };
}

function firstIndexMap(labels: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  labels.forEach((label, i) => {
    if (!map.has(label)) map.set(label, i);
  });
  return map;
}
