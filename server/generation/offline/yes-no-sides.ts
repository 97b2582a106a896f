import { AVERAGE_WORDS, MAX_WORDS, MIN_WORDS, SUM_WORDS, wordOf, type Token } from './yes-no-words';

/**
 * One side of a Yes/No comparison ("the sum of the two smallest bars", "the value of Togo",
 * "90%") read into an expression. Sides are lists of token indices into the question; every
 * token a side's reading rests on is marked in `used`, so the question-level check can refuse
 * a question with a meaningful word nobody read.
 */

export type Dir = 'max' | 'min';

/** A cell or a whole line of the table: a row (`row` set), a column (`series` set), or not yet known (both null). */
export interface Ref {
  row: string | null;
  series: string | null;
}

export type Items =
  | { kind: 'cells'; refs: Ref[] }
  /** Every value of a line; `count` is the number the question says it has ("all three countries"). */
  | { kind: 'line'; over: Ref; count: number | null; all: boolean }
  /** The k largest or smallest values of a line ("the smallest two bars"). */
  | { kind: 'ranked'; dir: Dir; k: number; over: Ref }
  /** "the two extreme values": the largest and the smallest. */
  | { kind: 'extremes'; over: Ref };

export type Expr =
  | { kind: 'number'; value: number }
  | { kind: 'cell'; ref: Ref }
  | { kind: 'aggregate'; fn: 'sum' | 'avg' | 'median'; items: Items }
  /** The k-th largest or smallest value of a line ("the 2nd largest bar"). */
  | { kind: 'rank'; dir: Dir; k: number; over: Ref }
  | { kind: 'binary'; op: 'diff' | 'product'; a: Expr; b: Expr }
  /** "any of the bars", "all the bars": a comparison must hold for one, or for every, value of a line. */
  | { kind: 'quantified'; all: boolean; over: Ref; count: number | null };

export class SideReader {
  constructor(
    private readonly tokens: readonly Token[],
    readonly used: Set<number>,
  ) {}

  private word(i: number): string | null {
    return wordOf(this.tokens[i]);
  }

  private labels(side: readonly number[]): { i: number; dim: 'row' | 'series'; label: string }[] {
    return side.flatMap((i) => {
      const t = this.tokens[i];
      return t?.kind === 'label' ? [{ i, dim: t.dim, label: t.label }] : [];
    });
  }

  private numbers(side: readonly number[], form: 'cardinal' | 'ordinal'): number[] {
    return side.filter((i) => {
      const t = this.tokens[i];
      return t?.kind === 'number' && t.form === form && !this.used.has(i);
    });
  }

  private valueAt(i: number | undefined): number {
    const t = i === undefined ? undefined : this.tokens[i];
    return t?.kind === 'number' ? t.value : Number.NaN;
  }

  private use(...indexes: (number | undefined)[]): void {
    for (const i of indexes) if (i !== undefined) this.used.add(i);
  }

  /** A side of a comparison: a binary operation, an aggregate, a quantified line or a single value. */
  side(side: readonly number[]): Expr | null {
    const binary = side.findIndex((i, p) => ['difference', 'product'].includes(this.word(i) ?? '') && ['of', 'between'].includes(this.word(side[p + 1] ?? -1) ?? ''));
    if (binary !== -1) return this.binary(side, binary);
    const aggregates = side.filter((i) => {
      const w = this.word(i) ?? '';
      return SUM_WORDS.has(w) || AVERAGE_WORDS.has(w) || w === 'median';
    });
    if (aggregates.length > 0) {
      const fns = new Set(aggregates.map((i) => (AVERAGE_WORDS.has(this.word(i) ?? '') ? 'avg' : this.word(i) === 'median' ? 'median' : 'sum')));
      const [fn] = [...fns];
      if (fns.size !== 1 || fn === undefined) return null;
      this.use(...aggregates);
      // "add up": the particle belongs to the verb.
      for (const i of aggregates) if (this.word(i) === 'add' && this.word(i + 1) === 'up') this.use(i + 1);
      const items = this.items(side.filter((i) => !aggregates.includes(i)));
      return items && { kind: 'aggregate', fn, items };
    }
    const quantifier = side.find((i) => ['any', 'all', 'every'].includes(this.word(i) ?? ''));
    if (quantifier !== undefined && !side.some((i) => this.superlative(i) !== null)) {
      const over = this.line(side);
      const counts = this.numbers(side, 'cardinal');
      if (!over || counts.length > 1) return null;
      this.use(quantifier, ...counts);
      return { kind: 'quantified', all: this.word(quantifier) !== 'any', over, count: counts.length === 1 ? this.valueAt(counts[0]) : null };
    }
    return this.value(side);
  }

  /** "the difference of the largest and the 2nd largest bar", "the product of A and B". */
  private binary(side: readonly number[], at: number): Expr | null {
    const head = side.slice(0, at);
    const rest = side.slice(at + 2);
    const ands = rest.filter((i) => this.word(i) === 'and');
    if (head.some((i) => this.tokens[i]?.kind !== 'word') || ands.length !== 1) return null;
    const split = rest.indexOf(ands[0] ?? -1);
    const a = this.value(rest.slice(0, split));
    const b = this.value(rest.slice(split + 1));
    if (!a || !b) return null;
    this.use(side[at], side[at + 1], ands[0]);
    return { kind: 'binary', op: this.word(side[at] ?? -1) === 'product' ? 'product' : 'diff', a, b };
  }

  /** What an aggregate is over: named cells, the k largest or smallest, or a whole line. */
  private items(side: readonly number[]): Items | null {
    const labels = this.labels(side);
    const supers = side.filter((i) => this.superlative(i) !== null);
    const counts = this.numbers(side, 'cardinal');
    if (supers.length > 1 || this.numbers(side, 'ordinal').length > 0) return null;
    const [sup] = supers;
    if (sup !== undefined) {
      // "the smallest two bars", "two lowest bars": the count stands next to the rank word.
      const at = side.indexOf(sup);
      const k = [side[at - 1], side[at + 1]].find((i) => i !== undefined && counts.includes(i));
      const over = this.line(side);
      const dir = this.superlative(sup);
      if (k === undefined || !over || dir === null || this.valueAt(k) < 2) return null;
      this.use(sup, k);
      return { kind: 'ranked', dir, k: this.valueAt(k), over };
    }
    const extremes = side.filter((i) => this.word(i) === 'extreme' || this.word(i) === 'extremes');
    if (extremes.length > 0) {
      const over = this.line(side);
      if (extremes.length > 1 || !over || counts.length > 1 || (counts.length === 1 && this.valueAt(counts[0]) !== 2)) return null;
      this.use(...extremes, ...counts);
      return { kind: 'extremes', over };
    }
    const all = side.filter((i) => ['all', 'every'].includes(this.word(i) ?? ''));
    const rows = labels.filter((l) => l.dim === 'row');
    const series = labels.filter((l) => l.dim === 'series');
    const items = rows.length >= 2 && series.length <= 1 ? rows : series.length >= 2 && rows.length <= 1 ? series : null;
    if (items) {
      if (all.length > 0 || !this.joined(side, items.map((l) => l.i))) return null;
      const context = items === rows ? series[0] : rows[0];
      if (counts.length > 1 || (counts.length === 1 && this.valueAt(counts[0]) !== items.length)) return null;
      this.use(...labels.map((l) => l.i), ...counts);
      const refs = items.map((l) => (l.dim === 'row' ? { row: l.label, series: context?.label ?? null } : { row: context?.label ?? null, series: l.label }));
      return { kind: 'cells', refs };
    }
    if (labels.length === 2 && rows.length === 1 && series.length === 1) {
      // One cell named by its row and series: the aggregate of one value is that value.
      if (all.length > 0 || counts.length > 0) return null;
      this.use(...labels.map((l) => l.i));
      return { kind: 'cells', refs: [{ row: rows[0]?.label ?? null, series: series[0]?.label ?? null }] };
    }
    const over = this.line(side);
    if (!over || counts.length > 1) return null;
    this.use(...all, ...counts);
    return { kind: 'line', over, count: counts.length === 1 ? this.valueAt(counts[0]) : null, all: all.length > 0 };
  }

  /** A single value: a rank ("the second highest value"), a cell ("the value of Gabon"), or a number ("2500 MW"). */
  private value(side: readonly number[]): Expr | null {
    const labels = this.labels(side);
    const supers = side.filter((i) => this.superlative(i) !== null);
    const counts = this.numbers(side, 'cardinal');
    const ordinals = this.numbers(side, 'ordinal');
    if (supers.length > 1) return null;
    const [sup] = supers;
    if (sup !== undefined) {
      const at = side.indexOf(sup);
      const ordinal = side[at - 1] !== undefined && ordinals.includes(side[at - 1] ?? -1) ? side[at - 1] : undefined;
      const over = this.line(side);
      const dir = this.superlative(sup);
      if (!over || dir === null) return null;
      this.use(sup, ordinal);
      return { kind: 'rank', dir, k: ordinal === undefined ? 1 : this.valueAt(ordinal), over };
    }
    // "The middle bar" is a position: after an edit reorders the bars a reader cannot tell which
    // one it means, so it is left unread (and the question unprogrammed), extremes or not.
    const rows = labels.filter((l) => l.dim === 'row');
    const series = labels.filter((l) => l.dim === 'series');
    if (labels.length > 0) {
      if (rows.length > 1 || series.length > 1) return null;
      this.use(...labels.map((l) => l.i));
      return { kind: 'cell', ref: { row: rows[0]?.label ?? null, series: series[0]?.label ?? null } };
    }
    if (counts.length === 1 && ordinals.length === 0) {
      this.use(counts[0]);
      return { kind: 'number', value: this.valueAt(counts[0]) };
    }
    return null;
  }

  /** The line a rank or aggregate runs over: the one label the side names, or none (resolved later). */
  private line(side: readonly number[]): Ref | null {
    const labels = this.labels(side);
    if (labels.length > 1) return null;
    const [only] = labels;
    if (!only) return { row: null, series: null };
    this.use(only.i);
    return only.dim === 'row' ? { row: only.label, series: null } : { row: null, series: only.label };
  }

  /** Whether the listed labels are joined by commas and "and" alone ("A, B and C"), which are then read. */
  private joined(side: readonly number[], items: readonly number[]): boolean {
    const glue: number[] = [];
    for (let n = 1; n < items.length; n++) {
      const between = side.slice(side.indexOf(items[n - 1] ?? -1) + 1, side.indexOf(items[n] ?? -1));
      if (between.length === 0 || !between.every((i) => this.word(i) === ',' || this.word(i) === 'and')) return false;
      glue.push(...between);
    }
    this.use(...glue);
    return true;
  }

  superlative(i: number): Dir | null {
    const w = this.word(i) ?? '';
    return MAX_WORDS.has(w) ? 'max' : MIN_WORDS.has(w) ? 'min' : null;
  }
}
