import { axisDirection } from './axis-order';
import type { CellChange } from './edit';
import { diffTables } from './edit-apply';
import type { Finding } from './lint';
import type { DataTable } from './model';

/**
 * Premises a reviewer finds implausible: a bar cut by 85 %, 1950's mortgage debt set to 2020's,
 * a 7 % segment made 70 %. A change is implausible when it cuts the value by more than `share`
 * of itself, or multiplies it by more than 1 / (1 − share) AND moves it by more than
 * (1 − share) of the column's range — so a pie's 2 % slice may still take 10 points, and
 * doubling or halving a bar always passes. Over time, one point may also not leave the band its
 * series spans by more than that band's width (see `spikes`).
 * Two categories swapping their values only relabels the chart and is always plausible; two
 * periods swapping theirs (1985's exports for 2020's) rewrites history and is judged.
 */

/** The default share (settings `max_change_share`): a value may fall to a quarter, or grow fourfold. */
export const DEFAULT_MAX_CHANGE_SHARE = 0.75;

export function implausibleChanges(original: DataTable, edited: DataTable, share = DEFAULT_MAX_CHANGE_SHARE): Finding[] {
  const keep = 1 - share;
  const offenders: string[] = [];
  const changes = diffTables(original, edited);
  const relabelled = categorySwaps(original, changes);
  for (const change of changes) {
    if (relabelled.has(change)) continue;
    const { before, after } = change;
    if (before === null || after === null || before <= 0) continue;
    const s = original.series.indexOf(change.series);
    const column = original.rows.map((row) => row.values[s]).filter((v): v is number => v !== null && v !== undefined);
    if (column.length === 0) continue;
    const range = Math.max(...column) - Math.min(0, ...column);
    const factor = after / before;
    const far = Math.abs(after - before) > keep * range;
    // A cut is judged against the value alone (any bar cut by 85% is a collapse); a rise also
    // against the chart, so a small slice may still take ten points.
    if (factor < keep || (far && factor > 1 / keep)) {
      offenders.push(`${JSON.stringify(change.row)} / ${JSON.stringify(change.series)} goes from ${before} to ${after} (${factor < 1 ? `cut by ${Math.round((1 - factor) * 100)}%` : `×${Math.round(factor * 10) / 10}`})`);
    }
  }
  offenders.push(...spikes(original, changes.filter((change) => !relabelled.has(change))));
  if (offenders.length === 0) return [];
  return [
    {
      code: 'implausible_change',
      severity: 'error',
      message: `${offenders.slice(0, 3).join('; ')}${offenders.length > 3 ? ` and ${offenders.length - 3} more` : ''}: beyond what the chart makes plausible (more than a ${Math.round(share * 100)}% cut or a ×${Math.round((1 / keep) * 10) / 10} rise, and more than ${Math.round(keep * 100)}% of the chart's range)`,
    },
  ];
}

/**
 * Cells that only trade values with another (a swap, however written: a swap op or two sets),
 * between two categories: two rows of one series, or two series of one row, that are not periods.
 */
function categorySwaps(original: DataTable, changes: readonly CellChange[]): Set<CellChange> {
  const rowsArePeriods = axisDirection(original.rows.map((row) => row.label)) !== null;
  const seriesArePeriods = original.series.length >= 3 && axisDirection(original.series) !== null;
  const swapped = new Set<CellChange>();
  for (const a of changes) {
    for (const b of changes) {
      if (a === b || a.before !== b.after || a.after !== b.before) continue;
      const sameSeries = a.series === b.series && !rowsArePeriods;
      const sameRow = a.row === b.row && !seriesArePeriods;
      if (sameSeries || sameRow) swapped.add(a);
    }
  }
  return swapped;
}

/** The least envelope a series over time is given, as a share of its mean: a flat series may still move. */
const MIN_ENVELOPE_SHARE = 0.25;
/** How many band widths a point may leave its series' band by. */
const ENVELOPE_WIDTHS = 3;

/**
 * A series over time moves smoothly: one point sent far outside the band the series spans (by
 * more than three times that band's width, the band at least a quarter of the series' mean) is a spike
 * no year of such a chart shows — Tunisia's population doubled in 2009 alone. A change of every point (the whole line scaled) keeps its
 * shape and is judged by the rule above only.
 */
function spikes(original: DataTable, changes: readonly CellChange[]): string[] {
  if (axisDirection(original.rows.map((row) => row.label)) === null) return [];
  const out: string[] = [];
  for (const name of new Set(changes.map((change) => change.series))) {
    const s = original.series.indexOf(name);
    const column = original.rows.map((row) => row.values[s]).filter((v): v is number => v !== null && v !== undefined);
    const changed = changes.filter((change) => change.series === name && change.before !== null && change.after !== null);
    if (s === -1 || column.length < 3 || changed.length >= column.length) continue;
    const low = Math.min(...column);
    const high = Math.max(...column);
    const mean = column.reduce((a, b) => a + b, 0) / column.length;
    const band = ENVELOPE_WIDTHS * Math.max(high - low, MIN_ENVELOPE_SHARE * Math.abs(mean));
    for (const change of changed) {
      const after = change.after as number;
      if (after > high + band || after < low - band) {
        out.push(`${JSON.stringify(change.row)} / ${JSON.stringify(name)} goes from ${change.before} to ${after}, far outside the ${low}–${high} the series spans over time (a spike)`);
      }
    }
  }
  return out;
}
