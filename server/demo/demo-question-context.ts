import type { DataTable } from '../../shared/table/model';
import { at, shuffle, type Rng } from '../../shared/random';

/** What every question maker shares: the table's context, its wording, and reads of its cells. */

/** Rounds as ChartQA labels are rounded: at most 2 decimals, no trailing zeros. */
export function formatAnswer(value: number): string {
  return String(Number(value.toFixed(2)));
}

/** What the generator knows about a table that the table itself does not say. */
export interface QuestionContext {
  /** The single series' measure in prose ("revenue", "market share"). */
  measure: string;
  rowNoun: string;
  rowNounPlural: string;
  seriesNoun: string;
  /** Rows are years or months: questions say "in 2019" rather than "for Europe". */
  timeRows: boolean;
  /** Sums of values mean something (amounts, shares; not temperatures or rates). */
  additive: boolean;
  /**
   * Sums of two rows mean something: amounts always, shares only as parts of one whole (two
   * slices), never across periods (a market share in 2013 plus one in 2017 measures nothing).
   */
  additiveAcrossRows: boolean;
  /** Values of different series share a unit (false for a scatter plot's two measures). */
  comparableSeries: boolean;
}

type Answer = { query: string; label: string } | null;
export type Maker = (table: DataTable, ctx: QuestionContext, rng: Rng) => Answer;

interface Wording {
  multi: boolean;
  /** The column in prose: the measure for one series, "value of <series>" for several. */
  col: (s: number) => string;
  prep: string;
  verb: string;
  lead: string;
}

export function wording(table: DataTable, ctx: QuestionContext): Wording {
  const multi = table.series.length > 1;
  return {
    multi,
    col: (s) => (multi ? `value of ${at(table.series, s)}` : ctx.measure),
    prep: ctx.timeRows ? 'in' : 'for',
    verb: ctx.timeRows ? 'was' : 'is',
    lead: ctx.timeRows ? 'In' : 'For',
  };
}

export const rowLabel = (table: DataTable, r: number): string => at(table.rows, r).label;
export const valueAt = (table: DataTable, r: number, s: number): number | null => at(table.rows, r).values[s] ?? null;
export const seriesIndexes = (table: DataTable): number[] => table.series.map((_, s) => s);

export function presentRows(table: DataTable, s: number): number[] {
  return table.rows.flatMap((row, r) => (row.values[s] == null ? [] : [r]));
}
export function presentSeries(table: DataTable, r: number): number[] {
  return at(table.rows, r).values.flatMap((v, s) => (v === null ? [] : [s]));
}
/** A column's numbers, or null when a cell is missing (aggregates over gaps are not asked). */
export function fullColumn(table: DataTable, s: number): number[] | null {
  const out: number[] = [];
  for (const row of table.rows) {
    const v = row.values[s];
    if (v == null) return null;
    out.push(v);
  }
  return out;
}

/** The index of the single largest (or smallest) value, or -1 on a tie. */
export function uniqueExtreme(values: readonly number[], direction: 'max' | 'min'): number {
  const best = direction === 'max' ? Math.max(...values) : Math.min(...values);
  const hits = values.flatMap((v, i) => (v === best ? [i] : []));
  return hits.length === 1 ? at(hits, 0) : -1;
}

/** Two distinct indexes in their table order, or null. */
export function twoOf(rng: Rng, indexes: readonly number[]): [number, number] | null {
  if (indexes.length < 2) return null;
  const [a = 0, b = 0] = shuffle(rng, indexes);
  return a < b ? [a, b] : [b, a];
}
