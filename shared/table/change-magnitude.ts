import { axisDirection, orderKey } from './axis-order';
import { isPercentCell as isPercentCellAt } from './cell';
import type { CellChange } from './edit';
import { diffTables } from './edit-apply';
import type { Finding } from './lint';
import type { DataTable } from './model';

/**
 * Premises a reviewer finds implausible: a bar cut by 85 %, 1950's mortgage debt set to 2020's,
 * a 7 % segment made 70 %. A change is implausible when it cuts the value by more than `share`
 * of itself, or multiplies it by more than 1 / (1 − share) AND moves it by more than
 * (1 − share) of the column's range — so a pie's 2 % slice may still take 10 points, and
 * doubling or halving a bar always passes. Over time, a point may also not jump from its
 * neighbouring periods far more than the series ever moved between periods (see `spikes`).
 * Two categories swapping their values on a chart without periods only relabels it and is always
 * plausible; on a chart over time two periods trading values rewrite history and are never
 * plausible (`reversedPairs`), and two brands trading shares in one year are judged like any change.
 */

/** The default share (settings `max_change_share`): a value may be halved, or doubled. */
export const DEFAULT_MAX_CHANGE_SHARE = 0.5;

export function implausibleChanges(original: DataTable, edited: DataTable, share = DEFAULT_MAX_CHANGE_SHARE): Finding[] {
  const keep = 1 - share;
  const offenders: string[] = [];
  const changes = diffTables(original, edited);
  const relabelled = categorySwaps(original, changes);
  for (const change of changes) {
    const { before, after } = change;
    if (before === null || after === null || before < 0) continue;
    const s = original.series.indexOf(change.series);
    const percent = isPercentCell(original, change.row, s);
    // Two answers of a poll trading shares only relabels them; two countries trading GDPs makes
    // Nepal as rich as Estonia, which is judged like any change.
    if (relabelled.has(change) && percent) continue;
    const column = original.rows.map((row) => row.values[s]).filter((v): v is number => v !== null && v !== undefined);
    if (column.length === 0) continue;
    const range = Math.max(...column) - Math.min(0, ...column);
    const far = Math.abs(after - before) > keep * range;
    // From nothing (Croatia's 0 MW of geothermal power) any value is an infinite rise: judged by the chart's range alone.
    if (before === 0) {
      if (far) offenders.push(`${JSON.stringify(change.row)} / ${JSON.stringify(change.series)} goes from 0 to ${after}`);
      continue;
    }
    const factor = after / before;
    // A cut is judged against the value alone (any bar cut by 85% is a collapse); a rise too,
    // but a share also against the chart, so a small slice may still take ten points.
    if (factor < keep || (factor > 1 / keep && (!percent || far))) {
      offenders.push(`${JSON.stringify(change.row)} / ${JSON.stringify(change.series)} goes from ${before} to ${after} (${factor < 1 ? `cut by ${Math.round((1 - factor) * 100)}%` : `×${Math.round(factor * 10) / 10}`})`);
    }
  }
  // A new period is judged by the steps too: 2021 back at 2010's split after a decade's steady fall is no plausible year.
  offenders.push(...spikes(original, edited, [...changes, ...addedCells(original, edited)]), ...reversedPairs(original, changes));
  // Years as columns (OWID's wide tables): a country's row is its series over time.
  if (original.series.length >= 3 && axisDirection(original.series) !== null && edited.series.length === original.series.length) {
    offenders.push(...spikes(transposed(original), transposed(edited), changes.map((change) => ({ ...change, row: change.series, series: change.row }))));
  }
  if (offenders.length === 0) return [];
  return [
    {
      code: 'implausible_change',
      severity: 'error',
      message: `${offenders.slice(0, 3).join('; ')}${offenders.length > 3 ? ` and ${offenders.length - 3} more` : ''}: beyond what the chart makes plausible (a value cut by more than ${Math.round(share * 100)}% or raised past ×${Math.round((1 / keep) * 10) / 10}, a jump over time past the series' own steps, or its history reversed)`,
    },
  ];
}

function isPercentCell(table: DataTable, rowLabel: string, s: number): boolean {
  return isPercentCellAt(table, table.rows.findIndex((row) => row.label === rowLabel), s);
}

/**
 * Two periods of one series trading their values rewrite its history: the later value happens
 * earlier (online sales falling from 11% to 6.8% instead of rising; a rising internet share
 * falling from 2018 to 2019; 1999's rate traded with 2020's, the trend reversed). No reader
 * takes it for a plausible premise, however small the values' gap. Periods as rows, or as columns
 * (years across, a country's row its series).
 */
function reversedPairs(original: DataTable, changes: readonly CellChange[]): string[] {
  const rowsArePeriods = axisDirection(original.rows.map((row) => row.label)) !== null;
  const seriesArePeriods = original.series.length >= 3 && axisDirection(original.series) !== null;
  if (!rowsArePeriods && !seriesArePeriods) return [];
  const out: string[] = [];
  for (const a of changes) {
    if (a.before === a.after) continue;
    const traded = (other: CellChange) => other !== a && other.before === a.after && other.after === a.before;
    const overRows = rowsArePeriods ? changes.find((other) => traded(other) && other.series === a.series && other.row !== a.row) : undefined;
    if (overRows && a.row < overRows.row) out.push(`${JSON.stringify(a.row)} and ${JSON.stringify(overRows.row)} trade their ${JSON.stringify(a.series)} values, rewriting the series' history`);
    const overColumns = seriesArePeriods ? changes.find((other) => traded(other) && other.row === a.row && other.series !== a.series) : undefined;
    if (overColumns && a.series < overColumns.series) out.push(`${JSON.stringify(a.series)} and ${JSON.stringify(overColumns.series)} trade their ${JSON.stringify(a.row)} values, rewriting its history`);
  }
  return out;
}

/**
 * Cells that only trade values with another (a swap, however written: a swap op or two sets),
 * between two categories: two rows of one series, or two series of one row, on a table with no
 * periods. Where either axis is time, the swapped values have a history the swap rewrites (Western
 * Digital's 32.7% share traded with Hitachi's 2.4% in 2017 only), so it is judged like any change.
 */
function categorySwaps(original: DataTable, changes: readonly CellChange[]): Set<CellChange> {
  const rowsArePeriods = axisDirection(original.rows.map((row) => row.label)) !== null;
  const seriesArePeriods = original.series.length >= 3 && axisDirection(original.series) !== null;
  const swapped = new Set<CellChange>();
  for (const a of changes) {
    for (const b of changes) {
      if (a === b || a.before !== b.after || a.after !== b.before) continue;
      if (rowsArePeriods || seriesArePeriods) continue;
      if (a.series === b.series || a.row === b.row) swapped.add(a);
    }
  }
  return swapped;
}

/** How many times its own largest step a series over time may jump between neighbouring periods (a strict read: ACSI ±10 where it never moved 5 is a rewrite). */
export const STEP_MULTIPLE = 2;
/** A jump of this share of the value is always allowed: a flat series may still move a little. */
const STEP_FLOOR = 0.05;

/**
 * A series over time moves as it has moved: a point the edit sets apart from its neighbouring
 * periods by more than twice the series' largest step between periods (and more than 5 %
 * of the neighbour) is a jump no year of such a chart shows — Tunisia's population down 10 % in
 * one year, US arrests up 71 %, a satisfaction score steady at 68–73 for 13 years falling to 52.
 * Neighbours are read after the edit, so a line scaled or bent as a whole keeps its steps.
 */
function spikes(original: DataTable, edited: DataTable, changes: readonly CellChange[]): string[] {
  if (axisDirection(original.rows.map((row) => row.label)) === null) return [];
  const out: string[] = [];
  const timeOrder = (table: DataTable) => [...table.rows].sort((a, b) => (orderKey(a.label) ?? 0) - (orderKey(b.label) ?? 0));
  for (const name of new Set(changes.map((change) => change.series))) {
    const s = original.series.indexOf(name);
    const e = edited.series.indexOf(name);
    if (s === -1 || e === -1) continue;
    const before = timeOrder(original).map((row) => row.values[s] ?? null).filter((v): v is number => v !== null);
    if (before.length < 3) continue;
    const step = Math.max(...before.slice(1).map((v, i) => Math.abs(v - (before[i] as number))));
    const after = timeOrder(edited).filter((row) => row.values[e] !== null && row.values[e] !== undefined);
    const changed = new Set(changes.filter((change) => change.series === name).map((change) => change.row));
    after.forEach((row, i) => {
      if (!changed.has(row.label)) return;
      const value = row.values[e] as number;
      for (const neighbour of [after[i - 1], after[i + 1]]) {
        const other = neighbour?.values[e];
        if (neighbour === undefined || other === null || other === undefined) continue;
        const jump = Math.abs(value - other);
        const was = originalStep(original, s, row.label, neighbour.label);
        if (jump > Math.max(STEP_MULTIPLE * step, STEP_FLOOR * Math.abs(other)) && (was === null || jump > was + 1e-9)) {
          out.push(`${JSON.stringify(row.label)} / ${JSON.stringify(name)} becomes ${value} beside ${other} in ${JSON.stringify(neighbour.label)}, a jump of ${Math.round(jump * 1000) / 1000} where the series never moved more than ${Math.round(step * 1000) / 1000} between periods`);
          return;
        }
      }
    });
  }
  return out;
}

/** The cells of rows the edit added (before: null), for the time-step check of a new period. */
function addedCells(original: DataTable, edited: DataTable): CellChange[] {
  const labels = new Set(original.rows.map((row) => row.label));
  return edited.rows
    .filter((row) => !labels.has(row.label))
    .flatMap((row) => edited.series.flatMap((series, s) => (row.values[s] === null || row.values[s] === undefined ? [] : [{ row: row.label, series, before: null, after: row.values[s] }])));
}

/** The step between two periods on the original table, or null when either is missing there. */
function originalStep(table: DataTable, s: number, a: string, b: string): number | null {
  const value = (label: string) => table.rows.find((row) => row.label === label)?.values[s] ?? null;
  const x = value(a);
  const y = value(b);
  return x === null || y === null ? null : Math.abs(x - y);
}

/** The table with rows and series exchanged: periods as columns become periods as rows. */
function transposed(table: DataTable): DataTable {
  return {
    ...table,
    label_header: '',
    series: table.rows.map((row) => row.label),
    rows: table.series.map((name, s) => ({ label: name, raw: table.rows.map((row) => row.raw[s] ?? ''), values: table.rows.map((row) => row.values[s] ?? null) })),
  };
}
