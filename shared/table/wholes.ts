import type { ChartType } from '../domain/chart-types';
import { isPercentSeries } from './cell';
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


/** Headers that say a column holds shares even when its cells carry no `%`. */
const SHARE_WORDS = /\b(share|shares|percent|percentage|proportion|%)\b/i;

/** Whether any cell of the table is written as a percentage, or a header says shares. */
function sharesEvident(table: DataTable): boolean {
  return table.series.some((name, s) => isPercentSeries(table, s) || SHARE_WORDS.test(name)) || SHARE_WORDS.test(table.label_header);
}

/** Rows with at least one number. */
function filledRows(table: DataTable): DataTable['rows'] {
  return table.rows.filter((row) => row.values.some((v) => v !== null));
}

function withinShareRange(table: DataTable): boolean {
  return table.rows.every((row) => row.values.every((v) => v === null || (v >= 0 && v <= 100)));
}

/**
 * Every row sums to ~100 and is one whole — decided from the data, whatever the chart is typed:
 * a 100% stacked bar, the sector shares of each year on a line chart, a Pew row of answers.
 * Two rows that each sum to 100 are shares; one needs a `%` or a header saying so.
 */
export function rowsAreWholes(table: DataTable, _chartType?: ChartType): boolean {
  if (table.series.length < 2 || !withinShareRange(table)) return false;
  const filled = filledRows(table);
  if (filled.length === 0 || !filled.every((row) => nearHundred(sumOf(row.values)))) return false;
  return filled.length >= 2 || sharesEvident(table);
}

/** The least a row of parts may sum to and still be read as most of one whole (Pew leaves out "Don't know"). */
export const PARTIAL_WHOLE_FLOOR = 80;

/**
 * Every row is most of one whole (its shares sum to 80–100: the answers of one question with
 * "Don't know" left out): a row may not pass 100 after an edit. Two such rows with `%` cells or a
 * share header, or three without (Pew writes none).
 */
export function rowsArePartialWholes(table: DataTable): boolean {
  if (table.series.length < 2 || !withinShareRange(table)) return false;
  const filled = filledRows(table);
  // Pew writes shares without `%`: three rows each summing to 80–100 are answers of one question.
  if (filled.length < (sharesEvident(table) ? 2 : 3)) return false;
  return filled.every((row) => {
    const total = sumOf(row.values);
    return total >= PARTIAL_WHOLE_FLOOR && total <= 100 + PERCENT_SUM_TOLERANCE;
  });
}

/**
 * The series is one whole: a pie's slices, or shares of one thing summing to ~100 on any
 * chart (`%` cells or a header saying shares) — but not a share per period (five years at 20%
 * are not parts of one whole).
 */
export function seriesIsWhole(table: DataTable, chartType: ChartType, s: number, timeAxis: boolean): boolean {
  const total = sumOf(table.rows.map((row) => row.values[s]));
  if (!nearHundred(total)) return false;
  if (chartType === 'pie') return true;
  return !timeAxis && (isPercentSeries(table, s) || SHARE_WORDS.test(table.series[s] ?? '')) && table.rows.every((row) => (row.values[s] ?? 0) >= 0);
}

/** Words that name a whole: a total, a NET, all of a population. */
const TOTAL_WORDS = /^\s*(net|total|all|overall|combined|world|sum)\b|\b(total|net|overall)\s*\*?\s*$/i;

/** How far a total may sit from its parts' sum: the parts are rounded for display. */
function totalTolerance(total: number): number {
  return Math.max(1, Math.abs(total) * 0.01);
}

/** The step a cell is printed to: 0.1 for "25.3%", 1 for "1,204"; from its number where the text has none. */
export function printedStep(raw: string | undefined, value: number | null): number {
  const decimals = /\d\.(\d+)/.exec(raw ?? '')?.[1]?.length ?? (value === null || Number.isInteger(value) ? 0 : (String(value).split('.')[1]?.length ?? 0));
  return 10 ** -decimals;
}

/**
 * How far a total may sit from the sum of its parts when each was rounded for display on its
 * own: half a printed step per number, the total's included (31 + 22 = 54 is a NET; 12.4 + 9 +
 * 3.6 = 25.0 beside 25.3 is not). A flat tolerance of 1 took any column of shares near the sum
 * of some others for a total, as three other chains' shares were for Mercadona's.
 */
function roundingTolerance(row: DataTable['rows'][number], columns: number[]): number {
  const step = Math.max(...columns.map((c) => printedStep(row.raw[c], row.values[c] ?? null)));
  return (step / 2) * columns.length + 1e-9;
}

/** A series that is the sum of others ("NET Favorable" = "Very" + "Somewhat"), with those others. */
export interface TotalColumn {
  total: number;
  parts: number[];
}

/** The most series searched for a total's parts (subsets grow as 2^n). */
const MAX_TOTAL_SEARCH = 10;

/**
 * Series that equal the sum of two or more other series in every row that has them all: a
 * NET or Total column. Found in the data, so an edit of a part can be held to its total; at
 * least two rows must agree (three without a header that says total), so a coincidence of one
 * row does not count.
 */
export function totalColumns(table: DataTable): TotalColumn[] {
  const n = table.series.length;
  // Rows that are each one whole (shares summing to 100) hold no total beside its parts, which would count them twice; with many shares some subset always comes near another one ("Others").
  if (n < 3 || n > MAX_TOTAL_SEARCH || rowsAreWholes(table)) return [];
  const found: TotalColumn[] = [];
  for (let t = 0; t < n; t++) {
    const others = [...Array(n).keys()].filter((s) => s !== t && !found.some((f) => f.total === s));
    const needed = TOTAL_WORDS.test(table.series[t] ?? '') ? 2 : 3;
    let best: number[] | null = null;
    for (let mask = 1; mask < 1 << others.length; mask++) {
      const parts = others.filter((_, i) => mask & (1 << i));
      if (parts.length < 2 || (best && parts.length >= best.length)) continue;
      const rows = table.rows.filter((row) => row.values[t] !== null && parts.every((p) => row.values[p] !== null));
      if (rows.length < needed) continue;
      if (rows.every((row) => Math.abs((row.values[t] ?? 0) - sumOf(parts.map((p) => row.values[p]))) <= roundingTolerance(row, [t, ...parts]))) best = parts;
    }
    if (best) found.push({ total: t, parts: best });
  }
  return found;
}

/** A row that is the sum of the other rows in every series it fills ("Total", "World"), named as one. */
export function totalRow(table: DataTable): number | null {
  if (table.rows.length < 3) return null;
  const t = table.rows.findIndex((row) => TOTAL_WORDS.test(row.label));
  if (t === -1) return null;
  const total = table.rows[t] as DataTable['rows'][number];
  const others = table.rows.filter((_, r) => r !== t);
  const filled = table.series.map((_, s) => s).filter((s) => total.values[s] !== null && others.every((row) => row.values[s] !== null));
  if (filled.length === 0) return null;
  return filled.every((s) => Math.abs((total.values[s] ?? 0) - sumOf(others.map((row) => row.values[s]))) <= totalTolerance(total.values[s] ?? 0)) ? t : null;
}

/** Names of a series that combines the others as a rate of the whole group, not a sum: "Both sexes", "Total", "All adults". */
const COMBINED_WORDS = /\b(both sexes|both|total|all|overall|average|combined|everyone|all adults)\b/i;

/** A series that is the others' combined rate, with the series it combines. */
export interface CombinedColumn {
  combined: number;
  parts: number[];
}

/**
 * A series named as the whole group ("Both sexes" beside "Women" and "Men") that lies between
 * the other series in every row, at least two rows: their combined rate (a weighted mean), not
 * their sum. A change of a part moves it, so it must stay between them.
 */
export function combinedColumn(table: DataTable): CombinedColumn | null {
  if (table.series.length < 3) return null;
  const sums = new Set(totalColumns(table).map((column) => column.total));
  for (let c = 0; c < table.series.length; c++) {
    if (sums.has(c) || !COMBINED_WORDS.test(table.series[c] ?? '')) continue;
    const parts = table.series.map((_, s) => s).filter((s) => s !== c);
    const rows = table.rows.filter((row) => row.values[c] !== null && parts.every((p) => row.values[p] !== null));
    if (rows.length < 2) continue;
    if (rows.every((row) => withinParts(row, c, parts))) return { combined: c, parts };
  }
  return null;
}

/** Names of a row that averages the others ("Financial & insurance average all categories", "Overall"). */
const AVERAGE_ROW_WORDS = /\b(average|avg|mean|all categories|overall)\b/i;

/**
 * A row named as an average of the categories that lies between the other rows in every series
 * (at least three others): which rows it averages the table does not say, so a change of another
 * row that leaves it still is for a reviewer to judge.
 */
export function averageRow(table: DataTable): number | null {
  if (table.rows.length < 4 || totalRow(table) !== null) return null;
  const a = table.rows.findIndex((row) => AVERAGE_ROW_WORDS.test(row.label));
  if (a === -1) return null;
  const row = table.rows[a] as DataTable['rows'][number];
  const others = table.rows.filter((_, r) => r !== a);
  const between = table.series.every((_, s) => {
    const value = row.values[s];
    const values = others.map((other) => other.values[s]).filter((v): v is number => v !== null && v !== undefined);
    return value === null || value === undefined || (values.length >= 3 && value >= Math.min(...values) && value <= Math.max(...values));
  });
  return between ? a : null;
}

/** Whether the row's combined value lies between its parts' smallest and largest, to within its printing. */
export function withinParts(row: DataTable['rows'][number], combined: number, parts: readonly number[]): boolean {
  const values = parts.map((p) => row.values[p]).filter((v): v is number => v !== null && v !== undefined);
  const value = row.values[combined];
  if (value === null || value === undefined || values.length !== parts.length) return true;
  const slack = printedStep(row.raw[combined], value) / 2 + 1e-9;
  return value >= Math.min(...values) - slack && value <= Math.max(...values) + slack;
}

/**
 * A series named as the whole ("Total market", "All adults") that every other series stays
 * within in every row, without being their sum: each part must stay no larger than it.
 */
export function wholeColumn(table: DataTable): number | null {
  if (table.series.length < 2) return null;
  const w = table.series.findIndex((name) => TOTAL_WORDS.test(name) || /\btotal\b/i.test(name));
  if (w === -1) return null;
  const within = table.rows.every((row) => row.values.every((v, s) => s === w || v === null || row.values[w] === null || v <= (row.values[w] ?? 0) + 1e-9));
  return within ? w : null;
}
