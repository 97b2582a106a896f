import type { DataTable } from '../../../shared/table/model';
import { runProgram } from '../../../shared/table/program';
import { literal } from './phrasing';
import type { Dir, Expr, Ref } from './yes-no-sides';
import type { Token } from './yes-no-words';

/**
 * Expressions of a Yes/No question (yes-no-sides.ts) as program text over one table. Where the
 * question leaves a coordinate out ("… than that of Hestoria"), the label the whole question
 * names once fills it. Every reading that rests on the table's shape — a rank that must not be
 * tied, a count the question states — is kept as a condition: a program itself, which must be
 * true on this table and on any edited one the question is asked of.
 */

export interface List {
  text: string;
  /** The lists it is made of: one, or every series of the table (those can be aggregated, not filtered with where()). */
  parts: string[];
  values: number[];
}

export class ProgramWriter {
  readonly conditions: string[] = [];

  constructor(
    private readonly table: DataTable,
    private readonly tokens: readonly Token[],
    private readonly used: Set<number>,
  ) {}

  /** An expression as program text, or null when the table does not let it be read as the question means it. */
  render(e: Expr): string | null {
    switch (e.kind) {
      case 'number':
        return String(e.value);
      case 'cell':
        return this.cell(e.ref);
      case 'binary': {
        const [a, b] = [this.render(e.a), this.render(e.b)];
        if (a === null || b === null) return null;
        return e.op === 'diff' ? `diff(${a}, ${b})` : `${a} * ${b}`;
      }
      case 'rank': {
        const list = this.list(e.over, false);
        return list && this.distinctRanks(list, e.dir, e.k) ? kth(e.dir, e.k, list.text) : null;
      }
      case 'aggregate':
        return this.aggregate(e);
      case 'quantified':
        return null;
    }
  }

  private aggregate(e: Extract<Expr, { kind: 'aggregate' }>): string | null {
    const { items } = e;
    if (items.kind === 'cells') {
      const cells = items.refs.map((ref) => this.cell(ref));
      if (cells.some((cell) => cell === null)) return null;
      if (cells.length > 1) return `${e.fn}(${cells.join(', ')})`;
      // "The sum value of Madagascar" (ChartQA's template filled with one name): a sum of one value is that value.
      // "The average of Alpha" more likely lost a name, so it is not read.
      return e.fn === 'sum' ? (cells[0] ?? null) : null;
    }
    if (items.kind === 'ranked') {
      const list = this.list(items.over, false);
      if (!list || !this.distinctRanks(list, items.dir, items.k)) return null;
      return `${e.fn}(${Array.from({ length: items.k }, (_, n) => kth(items.dir, n + 1, list.text)).join(', ')})`;
    }
    if (items.kind === 'extremes') {
      const list = this.list(items.over, false);
      return list && this.counted(list, null, 2) ? `${e.fn}(max(${list.text}), min(${list.text}))` : null;
    }
    if (this.table.series.length === 1 && items.over.row !== null) {
      return items.all || items.count !== null || e.fn !== 'sum' ? null : this.cell(items.over);
    }
    const list = this.list(items.over, items.all);
    return list && this.counted(list, items.count, 1) ? `${e.fn}(${list.text})` : null;
  }

  /** A cell; on a table of several series, a coordinate the side leaves out is the one the whole question names once. */
  cell(ref: Ref): string | null {
    if (this.table.series.length === 1) return ref.row === null || ref.series !== null ? null : `value(${literal(ref.row)})`;
    const row = ref.row ?? this.onlyNamed('row');
    const series = ref.series ?? this.onlyNamed('series');
    return row === null || series === null ? null : `value(${literal(row)}, ${literal(series)})`;
  }

  /**
   * The values a rank or aggregate runs over. On a table of several series it must be a line the
   * question names — or, where it says "all"/"any", every series at once.
   */
  list(over: Ref, wholeTable: boolean): List | null {
    const { table } = this;
    if (table.series.length === 1) {
      return over.row === null ? oneList('series()', table.rows.map((row) => row.values[0])) : null;
    }
    if (over.row !== null && over.series !== null) return null;
    const named = over.row === null && over.series === null ? this.onlyNamedLabel() : over;
    if (named?.row) {
      const row = table.rows.find((r) => r.label === named.row);
      return row ? oneList(`row(${literal(row.label)})`, row.values) : null;
    }
    if (named?.series) {
      const s = table.series.indexOf(named.series);
      return oneList(`series(${literal(named.series)})`, table.rows.map((row) => row.values[s]));
    }
    if (!wholeTable) return null;
    const parts = table.series.map((s) => `series(${literal(s)})`);
    return { text: parts.join(', '), parts, values: present(table.rows.flatMap((row) => row.values)) };
  }

  /** The one label of a dimension the question names (its tokens are then read), or null. */
  private onlyNamed(dim: 'row' | 'series'): string | null {
    const found = this.tokens.flatMap((t, i) => (t.kind === 'label' && t.dim === dim ? [{ i, label: t.label }] : []));
    if (found.length === 0 || found.some((f) => f.label !== found[0]?.label)) return null;
    found.forEach((f) => this.used.add(f.i));
    return found[0]?.label ?? null;
  }

  /** The only label the question names at all, as a line. */
  private onlyNamedLabel(): Ref | null {
    const labels = new Set(this.tokens.flatMap((t) => (t.kind === 'label' ? [`${t.dim}:${t.label}`] : [])));
    if (labels.size !== 1) return null;
    const row = this.onlyNamed('row');
    return row === null ? { row: null, series: this.onlyNamed('series') } : { row, series: null };
  }

  /** Keeps a condition of the question's meaning, and says whether it holds on this table. */
  require(condition: string): boolean {
    this.conditions.push(condition);
    const result = runProgram(this.table, condition);
    return result.ok && result.value === true;
  }

  /** "all three countries" holds when the line has three values; a line has at least `least`. */
  counted(list: List, count: number | null, least: number): boolean {
    return count === null ? this.require(`${countOf(list)} >= ${least}`) : this.require(`${countOf(list)} == ${count}`);
  }

  /**
   * The first k ranks are k different values, so nested where() reaches the k-th (it skips
   * ties): "the sum of the two smallest" of 0, 0, 0.01 is 0, which it would read as 0.01.
   */
  private distinctRanks(list: List, dir: Dir, k: number): boolean {
    if (list.parts.length > 1 && k > 1) return false;
    if (!this.require(`${countOf(list)} >= ${Math.max(2, k)}`)) return false;
    return k === 1 || this.require(`count(where(${list.text}, "${dir === 'max' ? '>' : '<'}", ${kth(dir, k, list.text)})) == ${k - 1}`);
  }
}

/** How many values a list has; every series of the table counts as one list. */
export function countOf(list: List): string {
  return list.parts.map((part) => `count(${part})`).join(' + ');
}

/** The k-th largest (or smallest) value of a list, with no sort in the language: the largest below the (k-1)-th. */
export function kth(dir: Dir, k: number, list: string): string {
  let term = `${dir}(${list})`;
  for (let n = 2; n <= k; n++) term = `${dir}(where(${list}, "${dir === 'max' ? '<' : '>'}", ${term}))`;
  return term;
}

function oneList(text: string, values: readonly (number | null | undefined)[]): List {
  return { text, parts: [text], values: present(values) };
}

function present(values: readonly (number | null | undefined)[]): number[] {
  return values.filter((v): v is number => v !== null && v !== undefined);
}
