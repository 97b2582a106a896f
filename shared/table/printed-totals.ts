import type { ChartType } from '../domain/chart-types';
import type { DataTable } from './model';
import { nearHundred, sumOf } from './wholes';

/**
 * Stacked rows against what the chart prints: a row whose segments do not add up to the total
 * printed at its end (an extraction reads it, `DataRow.total`), or a 100 % stacked row that
 * does not reach 100. A swapped or misread segment passes every other check; the sum still
 * catches it where the chart gives one.
 */

export interface TotalMismatch {
  label: string;
  /** The printed total, or 100 for a 100 % stacked row. */
  expected: number;
  sum: number;
}

/** Off by more than this share of the total: more than reading printed, rounded segments explains. */
const TOTAL_TOLERANCE_SHARE = 0.02;

/** Whether the chart stacks its series: a stacked bar type, or an extraction that read stacking. */
export function drawsStacked(table: DataTable, chartType: ChartType): boolean {
  const stacking = table.drawn?.stacking;
  return chartType === 'stacked_bar' || stacking === 'stacked' || stacking === 'percent';
}

/** Half a unit in the last decimal a number is written to, once per segment summed (each was rounded). */
function roundingSlack(total: number, segments: number): number {
  const decimals = String(total).split('.')[1]?.length ?? 0;
  return 0.5 * 10 ** -decimals * segments;
}

export function stackedTotalMismatches(table: DataTable, chartType: ChartType): TotalMismatch[] {
  if (!drawsStacked(table, chartType)) return [];
  const percent = table.drawn?.stacking === 'percent';
  return table.rows.flatMap((row) => {
    const values = row.values.filter((value): value is number => value !== null);
    if (values.length === 0) return [];
    const sum = sumOf(row.values);
    if (row.total !== undefined) {
      const slack = Math.max(Math.abs(row.total) * TOTAL_TOLERANCE_SHARE, roundingSlack(row.total, values.length));
      return Math.abs(sum - row.total) > slack ? [{ label: row.label, expected: row.total, sum }] : [];
    }
    return percent && !nearHundred(sum) ? [{ label: row.label, expected: 100, sum }] : [];
  });
}
