import type { ChartType } from '../domain/chart-types';
import type { DataTable } from './model';

/**
 * Parts of one whole: what must still sum to 100 after an edit. The layout lint checks it and
 * the offline engine keeps it (an edit moves points, never creates or destroys them).
 */

/** How far from 100 pie slices or a 100%-stacked row may sum: ChartQA values are rounded for display. */
export const PERCENT_SUM_TOLERANCE = 1.5;

export function nearHundred(total: number): boolean {
  return Math.abs(total - 100) <= PERCENT_SUM_TOLERANCE;
}

export function sumOf(values: readonly (number | null | undefined)[]): number {
  return values.reduce<number>((total, v) => total + (v ?? 0), 0);
}

const PERCENT_CELL = /%\s*\*?$/;

/** Whether any cell of the series is written as a percentage. */
export function percentSeries(table: DataTable, s: number): boolean {
  return table.rows.some((row) => PERCENT_CELL.test((row.raw[s] ?? '').trim()));
}

/**
 * Every row sums to ~100 and is one whole: a 100% stacked bar or area, or grouped bars of
 * shares (each group's answers).
 */
export function rowsAreWholes(table: DataTable, chartType: ChartType): boolean {
  if (table.series.length < 2) return false;
  const shares = table.series.some((_, s) => percentSeries(table, s));
  if (!(chartType === 'stacked_bar' || chartType === 'area' || (chartType === 'grouped_bar' && shares))) return false;
  const filled = table.rows.filter((row) => row.values.some((v) => v !== null));
  return filled.length > 0 && filled.every((row) => nearHundred(sumOf(row.values)));
}

/**
 * The series is one whole: a pie's slices, or percentages of one thing summing to ~100 on any
 * chart — but not a share per period (five years at 20% are not parts of one whole).
 */
export function seriesIsWhole(table: DataTable, chartType: ChartType, s: number, timeAxis: boolean): boolean {
  const total = sumOf(table.rows.map((row) => row.values[s]));
  return nearHundred(total) && (chartType === 'pie' || (percentSeries(table, s) && !timeAxis));
}
