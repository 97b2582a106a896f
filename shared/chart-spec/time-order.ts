import { looksLikeTimeLabel } from '../domain/infer-chart-type';
import { orderKey } from '../table/axis-order';
import type { DataTable } from '../table/model';

/**
 * Charts draw time left to right (or top to bottom), earliest first, while ChartQA's tables
 * often list the latest year first (Statista writes 2020, 2019, …). A drawing that kept the
 * table's order would run years right to left and contradict its own questions.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_LABEL = /^([a-z]{3})[a-z]*\.?\s*'?(\d{2}|\d{4})$/i;
const HALF_LABEL = /^H([12])\s*'?(\d{2}|\d{4})$/i;
const SHORT_QUARTER_LABEL = /^Q([1-4])\s*'?(\d{2}|\d{4})$/i;
const FISCAL_LABEL = /^FY\s*'?(\d{2}|\d{4})$/i;
/** Two-digit years up to this are 20xx, later ones 19xx (`'98` is 1998, `'21` is 2021). */
const TWO_DIGIT_PIVOT = 50;

function fullYear(digits: string): number {
  const year = Number(digits);
  if (digits.length === 4) return year;
  return year <= TWO_DIGIT_PIVOT ? 2000 + year : 1900 + year;
}

/** A time label's position in time (years, seasons, quarters, halves, months, fiscal years), or null. */
export function timeKey(label: string): number | null {
  if (!looksLikeTimeLabel(label)) return null;
  const key = orderKey(label);
  if (key !== null) return key;
  const text = label.trim().replace(/\*+$/, '');
  const quarter = SHORT_QUARTER_LABEL.exec(text);
  if (quarter?.[1] && quarter[2]) return fullYear(quarter[2]) + (Number(quarter[1]) - 1) / 4;
  const half = HALF_LABEL.exec(text);
  if (half?.[1] && half[2]) return fullYear(half[2]) + (Number(half[1]) - 1) / 2;
  const fiscal = FISCAL_LABEL.exec(text);
  if (fiscal?.[1]) return fullYear(fiscal[1]);
  const month = MONTH_LABEL.exec(text);
  const monthIndex = month?.[1] ? MONTHS.indexOf(month[1].toLowerCase()) : -1;
  if (month?.[2] && monthIndex >= 0) return fullYear(month[2]) + monthIndex / 12;
  return null;
}

/** The labels' positions in time when every one of at least two is a time label; else null. */
function timeKeys(labels: readonly string[]): number[] | null {
  if (labels.length < 2) return null;
  const keys = labels.map(timeKey);
  return keys.every((key): key is number => key !== null) ? keys : null;
}

/** The table with time rows earliest first (a stable sort: equal times keep their order); other tables as they are. */
export function withTimeRowsAscending(table: DataTable): DataTable {
  const keys = timeKeys(table.rows.map((row) => row.label));
  if (!keys || keys.every((key, i) => i === 0 || key >= (keys[i - 1] ?? key))) return table;
  const order = keys.map((key, index) => ({ key, index })).sort((a, b) => a.key - b.key || a.index - b.index);
  return { ...table, rows: order.map(({ index }) => table.rows[index]).filter((row) => row !== undefined) };
}

/** Series that are all times (years across the columns) earliest first; otherwise their table order. */
export function timeSeriesAscending(series: readonly string[]): string[] {
  const keys = timeKeys(series);
  if (!keys) return [...series];
  return keys
    .map((key, index) => ({ key, index }))
    .sort((a, b) => a.key - b.key || a.index - b.index)
    .map(({ index }) => series[index] ?? '');
}
