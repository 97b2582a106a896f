import type { DataTable } from '../table/model';
import { CHART_TYPES, type ChartType } from './chart-types';

/**
 * Chart-type inference for charts that arrive without an annotation. A documented heuristic,
 * in this order (the first rule that holds wins):
 *
 * 1. Time axis: at least LINE_MIN_ROWS rows and every row label looks like a point in time
 *    (a year `2019`, a season `2019/20`, a quarter `Q1 2018`, a month `Jan 2020` or `Jan`) → `line`.
 * 2. Shares of a whole, one series: every value non-negative, at least 2 rows, and the values
 *    sum to 100 ± SHARE_TOLERANCE → `pie`.
 * 3. Shares of a whole, several series: every row with values sums to 100 ± SHARE_TOLERANCE →
 *    `stacked_bar` (a 100%-stacked bar).
 * 4. Several series otherwise → `grouped_bar`.
 * 5. One series with many rows (more than HORIZONTAL_MIN_ROWS) or long labels (mean length
 *    over HORIZONTAL_LABEL_CHARS) → `horizontal_bar`, as Statista draws such rankings.
 * 6. Otherwise → `vertical_bar`.
 *
 * At import the chart's factual questions then have their say (`typeFromQuestions` in
 * `chart-type-from-questions.ts`): ChartQA's questions name the marks they were written
 * looking at ("How many blue bars …", "Which country represents in red line?"), and a drawing
 * must not contradict them. The type stays `type_source: inferred`; when the questions' words
 * fix the whole type it records `type_evidence: questions`, else a chart with an image is
 * unconfirmed until a vision model (`type_evidence: vision`) or a curator decides it.
 *
 * A curator can always correct the result; the chart then records `type_source: curator`.
 */
export const LINE_MIN_ROWS = 5;
export const SHARE_TOLERANCE = 1;
export const HORIZONTAL_MIN_ROWS = 12;
export const HORIZONTAL_LABEL_CHARS = 15;

/** A month's name, whole or cut short ("Sep", "Sept.", "September"). */
const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?';

// A month alone ("Jan" … "Dec") is a point in time too: monthly series are drawn over a time axis.
const TIME_LABEL = new RegExp(`^(?:(?:19|20)\\d{2}(?:\\/\\d{2,4})?|Q[1-4]\\s*'?\\d{2,4}|H[12]\\s*'?\\d{2,4}|${MONTH}(?:\\s*'?\\d{2,4})?|FY\\s*'?\\d{2,4})\\*?$`, 'i');

export function looksLikeTimeLabel(label: string): boolean {
  return TIME_LABEL.test(label.trim());
}

function sumsToHundred(values: (number | null)[]): boolean {
  const present = values.filter((v): v is number => v !== null);
  if (present.length < 2 || present.some((v) => v < 0)) return false;
  const total = present.reduce((a, b) => a + b, 0);
  return Math.abs(total - 100) <= SHARE_TOLERANCE;
}

export function inferChartType(table: DataTable): ChartType {
  const { rows, series } = table;
  if (rows.length >= LINE_MIN_ROWS && rows.every((row) => looksLikeTimeLabel(row.label))) return 'line';
  if (series.length === 1 && sumsToHundred(rows.map((row) => row.values[0] ?? null))) return 'pie';
  return inferBarType(table);
}

/** Rules 3–6 alone: the bar type that fits the table, for a chart known to be drawn with bars. */
export function inferBarType(table: DataTable): ChartType {
  const { rows, series } = table;
  if (series.length === 1) {
    const meanLabel = rows.reduce((n, row) => n + row.label.length, 0) / Math.max(rows.length, 1);
    if (rows.length > HORIZONTAL_MIN_ROWS || meanLabel > HORIZONTAL_LABEL_CHARS) return 'horizontal_bar';
    return 'vertical_bar';
  }
  const rowsWithValues = rows.filter((row) => row.values.some((v) => v !== null));
  if (rowsWithValues.length > 0 && rowsWithValues.every((row) => sumsToHundred(row.values))) return 'stacked_bar';
  return 'grouped_bar';
}

/**
 * Maps an annotation's `type` to the vocabulary: ChartQA writes `v_bar`, `h_bar`, `line`,
 * `pie`; our own demo data and other sources may write a vocabulary name directly. A
 * vertical bar chart with several series is a grouped bar. Unknown names give null.
 */
export function chartTypeFromAnnotation(type: string, seriesCount: number): ChartType | null {
  const name = type.trim().toLowerCase();
  if (name === 'v_bar' || name === 'vbar') return seriesCount > 1 ? 'grouped_bar' : 'vertical_bar';
  if (name === 'h_bar' || name === 'hbar') return 'horizontal_bar';
  if (name === 'line' || name === 'dot_line') return 'line';
  if (name === 'pie') return 'pie';
  return (CHART_TYPES as readonly string[]).includes(name) ? (name as ChartType) : null;
}
