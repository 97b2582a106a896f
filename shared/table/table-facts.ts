import type { ChartType } from '../domain/chart-types';
import { axisDirection, orderKey } from './axis-order';
import { normalizeLabel } from './labels';
import { nearHundred, rowsAreWholes, seriesIsWhole, totalColumns, totalRow } from './wholes';
import type { DataTable } from './model';
import type { IntentKind, RowSelector } from '../generation/proposal-intent';

/** What the offline engine must know about a table before changing it: which columns hold numbers, and which structure an edit must keep. */

export interface Cell {
  label: string;
  value: number;
}

export interface ColumnFacts {
  name: string;
  /** Rows with a number in this column, in table order; only labels that occur once, so a label names one row. */
  cells: Cell[];
  /** The lint treats the column as shares (every pie column, any `%` column): values stay within 0–100. */
  share: boolean;
  /** Values read as percentages (a `%` column, or pie slices summing to 100): amounts are "percentage points". */
  percent: boolean;
  /** Whole numbers only: amounts of change are rounded to whole numbers. */
  integer: boolean;
  nonNegative: boolean;
  /** Pie slices summing to ~100: every edit must move points, never create or destroy them. */
  whole: boolean;
  /** Fraction digits the column writes: amounts are rounded to them. */
  decimals: number;
  /** On a time axis, the largest move between neighbouring periods: a plausible change of one point stays near it. Null off a time axis. */
  step: number | null;
}

export interface TableFacts {
  table: DataTable;
  chartType: ChartType;
  /** Series with at least MIN_CELLS numbers, most numbers first. */
  columns: ColumnFacts[];
  /** Stacked bars (or areas) whose every row sums to ~100: an edit must keep each row's total. */
  rowWhole: boolean;
  /** The rows are an ordered axis (years, seasons, quarters). */
  timeAxis: boolean;
  /** How questions name a row: "country", "year", "category". */
  rowNoun: string;
  /** A row that sums the others ("Total"): an edit of a part changes it too, and no rank names it. */
  totalRow: string | null;
  /** Series that sum others (a NET): an edit of a part changes its total in that row. */
  totals: { total: string; parts: string[] }[];
}

/** A column with fewer numbers offers no comparison to ask about. */
export const MIN_CELLS = 2;

const GENERIC_HEADERS = new Set(['', 'characteristic', 'entity', 'label', 'labels', 'category', 'value', 'values', 'x', 'name', 'item']);

export function tableFacts(table: DataTable, chartType: ChartType, title: string): TableFacts {
  const counts = new Map<string, number>();
  for (const row of table.rows) counts.set(normalizeLabel(row.label), (counts.get(normalizeLabel(row.label)) ?? 0) + 1);
  const unique = (label: string) => counts.get(normalizeLabel(label)) === 1 && label.trim() !== '';

  const seriesKeys = table.series.map(normalizeLabel);
  const timeAxis = axisDirection(table.rows.map((row) => row.label)) !== null;
  const totalAt = totalRow(table);
  const total = totalAt === null ? null : (table.rows[totalAt]?.label ?? null);
  const columns: ColumnFacts[] = [];
  table.series.forEach((name, s) => {
    // A series name that occurs twice cannot be addressed by an edit or a program.
    if (seriesKeys.indexOf(seriesKeys[s] ?? '') !== seriesKeys.lastIndexOf(seriesKeys[s] ?? '')) return;
    const cells: Cell[] = [];
    let decimals = 0;
    let percent = false;
    for (const row of table.rows) {
      const value = row.values[s] ?? null;
      const raw = (row.raw[s] ?? '').trim();
      if (value === null) continue;
      if (/%\s*\*?$/.test(raw)) percent = true;
      decimals = Math.max(decimals, /\.(\d+)/.exec(raw.replace(/,/g, ''))?.[1]?.length ?? 0);
      if (unique(row.label) && row.label !== total) cells.push({ label: row.label, value });
    }
    if (cells.length < MIN_CELLS) return;
    const columnTotal = sum(table.rows.map((row) => row.values[s] ?? null));
    columns.push({
      name,
      cells,
      share: chartType === 'pie' || percent,
      percent: percent || (chartType === 'pie' && nearHundred(columnTotal)),
      integer: cells.every((cell) => Number.isInteger(cell.value)),
      nonNegative: cells.every((cell) => cell.value >= 0),
      // Slices of a pie, or the shares of one whole on any chart (not one share per period).
      whole: seriesIsWhole(table, chartType, s, timeAxis),
      decimals: Math.min(decimals, 4),
      step: timeAxis ? largestStep(table, s) : null,
    });
  });
  columns.sort((a, b) => b.cells.length - a.cells.length);

  const filled = table.rows.filter((row) => row.values.some((v) => v !== null));
  const rowWhole = rowsAreWholes(table, chartType) && filled.length > 0;
  const totals = totalColumns(table).map(({ total: t, parts }) => ({ total: table.series[t] ?? '', parts: parts.map((p) => table.series[p] ?? '') }));
  return { table, chartType, columns, rowWhole, timeAxis, rowNoun: rowNounOf(table, title, timeAxis), totalRow: total, totals };
}

/** The row a selector names within a column; time selectors follow the axis, not the table order. */
export function selectRow(facts: TableFacts, column: ColumnFacts, selector: RowSelector): string | null {
  const byValue = [...column.cells].sort((a, b) => b.value - a.value);
  const byTime = facts.timeAxis ? [...column.cells].sort((a, b) => (orderKey(a.label) ?? 0) - (orderKey(b.label) ?? 0)) : column.cells;
  const pickAt = (cells: Cell[], index: number) => cells[index]?.label ?? null;
  switch (selector) {
    case 'max':
      return pickAt(byValue, 0);
    case 'min':
      return pickAt(byValue, byValue.length - 1);
    case 'second_max':
      return pickAt(byValue, 1);
    case 'second_min':
      return pickAt(byValue, byValue.length - 2);
    case 'median':
      return pickAt(byValue, Math.floor(byValue.length / 2));
    case 'middle':
      // "The middle point of the line" is the middle period; without a time axis, the middle-sized row.
      return facts.timeAxis ? pickAt(byTime, Math.floor(byTime.length / 2)) : pickAt(byValue, Math.floor(byValue.length / 2));
    case 'first':
      return pickAt(byTime, 0);
    case 'last':
      return pickAt(byTime, byTime.length - 1);
  }
}

/**
 * The column a proposal's rank is read in. A whole category ("remove the median category", a
 * removal takes the row's every bar) of a table of several series is ranked by its total over
 * them: ranked in one series of the engine's or the model's choosing, "the median category"
 * could be any of half the rows. Otherwise the column itself. Time ranks (first, last, the middle
 * of a time axis) follow the axis whatever the column.
 */
export function rankColumn(facts: TableFacts, column: ColumnFacts, kind: IntentKind | null): ColumnFacts {
  if (kind !== 'remove_row') return column;
  return categoryTotals(facts) ?? column;
}

/**
 * Each row's total over the table's series (series that sum others left out, and the total row):
 * null for a table of one series, where a row's value is its total.
 */
export function categoryTotals(facts: TableFacts): ColumnFacts | null {
  const netted = new Set(facts.totals.map((total) => total.total));
  const parts = facts.columns.filter((column) => !netted.has(column.name));
  if (facts.table.series.length < 2 || parts.length < 2) return null;
  const totals = new Map<string, number>();
  for (const column of parts) for (const cell of column.cells) totals.set(cell.label, (totals.get(cell.label) ?? 0) + cell.value);
  // Bars that each make one whole (100% stacked) are all as tall: their sums differ only by rounding, and no rank tells one from another.
  if (facts.rowWhole) for (const label of totals.keys()) totals.set(label, 100);
  // Table order, as a column's cells are.
  const cells = facts.table.rows.flatMap((row) => {
    const total = totals.get(row.label);
    return total === undefined ? [] : [{ label: row.label, value: roundSum(total, Math.max(...parts.map((column) => column.decimals))) }];
  });
  return {
    name: '',
    cells,
    share: false,
    percent: false,
    integer: cells.every((cell) => Number.isInteger(cell.value)),
    nonNegative: cells.every((cell) => cell.value >= 0),
    whole: false,
    decimals: Math.max(...parts.map((column) => column.decimals)),
    step: null,
  };
}

/** A sum at the digits its parts are written to: 0.1 + 0.2 ranks level with 0.3. */
function roundSum(value: number, decimals: number): number {
  return Number(value.toFixed(decimals));
}

/**
 * Whether the rank a value selector names is shared: "the second-lowest" of 18, 29, 41, 6, 6
 * could be either 6 (a tie for lowest) or 18, so an operation on it is not well defined. Time
 * selectors (first, last, a time axis's middle) are never tied.
 */
export function rankTied(facts: TableFacts, column: ColumnFacts, selector: RowSelector): boolean {
  if (selector === 'first' || selector === 'last' || (selector === 'middle' && facts.timeAxis)) return false;
  const label = selectRow(facts, column, selector);
  const value = label === null ? null : valueOf(column, label);
  return value !== null && column.cells.some((cell) => cell.label !== label && cell.value === value);
}

/** The label among `labels` that the text mentions (tolerantly, as a whole word); the longest wins. */
export function mentionedLabel(text: string, labels: readonly string[]): string | null {
  const haystack = ` ${normalizeLabel(text).replace(/[?!.,;:"]/g, ' ')} `;
  let best: string | null = null;
  for (const label of labels) {
    const key = normalizeLabel(label);
    if (key.length < 2) continue;
    const pattern = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(key)}($|[^\\p{L}\\p{N}])`, 'u');
    if (pattern.test(haystack) && (best === null || key.length > normalizeLabel(best).length)) best = label;
  }
  return best;
}

export function valueOf(column: ColumnFacts, label: string): number | null {
  return column.cells.find((cell) => cell.label === label)?.value ?? null;
}

function rowNounOf(table: DataTable, title: string, timeAxis: boolean): string {
  const header = normalizeLabel(table.label_header);
  if (!GENERIC_HEADERS.has(header) && header.split(' ').length <= 3) return header;
  if (timeAxis) return table.rows.every((row) => /^\d{4}\*?$/.test(row.label.trim())) ? 'year' : 'period';
  const by = /\bby ([a-z]+(?: group)?)\b/i.exec(title)?.[1];
  return by ? singular(by.toLowerCase()) : 'category';
}

function singular(word: string): string {
  if (/ies$/.test(word)) return word.replace(/ies$/, 'y');
  if (/(ss|us)$/.test(word)) return word;
  return word.replace(/s$/, '');
}

export function sum(values: readonly (number | null)[]): number {
  return values.reduce<number>((total, v) => total + (v ?? 0), 0);
}


function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The largest change between neighbouring periods of a series (rows in time order, missing cells skipped). */
function largestStep(table: DataTable, s: number): number | null {
  const values = [...table.rows]
    .sort((a, b) => (orderKey(a.label) ?? 0) - (orderKey(b.label) ?? 0))
    .map((row) => row.values[s] ?? null)
    .filter((v): v is number => v !== null);
  if (values.length < 2) return null;
  return Math.max(...values.slice(1).map((v, i) => Math.abs(v - (values[i] as number))));
}
