import { findLabelIndex, unknownLabelMessage } from '../labels';
import type { DataTable } from '../model';
import { combine, divide, mapNumeric } from './arithmetic';
import { ProgramError } from './errors';
import { COMPARATORS, describeValue, finite, type LabelList, type NumberList, type Value, type Comparison } from './values';

/**
 * The built-in functions. Each was added for a kind of question real charts get asked
 * (lookups, aggregates, argmax, gaps, ratios, counting cells that meet a condition);
 * `if` is not here because its branches are evaluated lazily by the interpreter.
 */

export interface Arg {
  value: Value;
  position: number;
}

export interface Runtime {
  /**
   * The table table functions read: the item's chart, or inside `chart(n, …)` the group's
   * chart n. Reading it in a group outside `chart()` throws (which chart would be a guess).
   */
  readonly table: DataTable;
  /** The group's chart at 1-based `position`, or a ProgramError naming the charts there are. */
  chartTable(chart: number, position: number): DataTable;
  /** Spends `count` evaluation steps; throws once the budget is gone. */
  tick(count: number): void;
}

/** The interpreter checks minArgs/maxArgs before `call`, so the first minArgs arguments exist. */
interface Builtin {
  signature: string;
  minArgs: number;
  maxArgs: number;
  call(args: Arg[], runtime: Runtime, position: number): Value;
}

/** Digits accepted by round(): beyond this, doubles carry no more precision. */
const MAX_ROUND_DIGITS = 10;

const VARIADIC = Number.POSITIVE_INFINITY;

export const BUILTINS: Record<string, Builtin> = {
  value: { signature: 'value(row, series) or value(chart, row, series)', minArgs: 1, maxArgs: 3, call: cellValue },
  series: {
    signature: 'series(name)',
    minArgs: 0,
    maxArgs: 1,
    call: ([name], { table }, position) => {
      const s = name ? seriesIndex(table, name) : onlySeries(table, position, 'series() needs a name');
      return list('rows', table.rows.map((row) => ({ label: row.label, value: row.values[s] ?? null })));
    },
  },
  row: {
    signature: 'row(label)',
    minArgs: 1,
    maxArgs: 1,
    call: ([label], { table }) => {
      const row = table.rows[rowIndex(table, label as Arg)];
      return list('series', table.series.map((name, s) => ({ label: name, value: row?.values[s] ?? null })));
    },
  },
  rows: { signature: 'rows()', minArgs: 0, maxArgs: 0, call: (_, { table }) => labels('rows', table.rows.map((row) => row.label)) },
  series_names: { signature: 'series_names()', minArgs: 0, maxArgs: 0, call: (_, { table }) => labels('series', [...table.series]) },
  sum: aggregate('sum', (values) => values.reduce((a, b) => a + b, 0), true),
  avg: aggregate('avg', (values) => values.reduce((a, b) => a + b, 0) / values.length),
  median: aggregate('median', median),
  min: aggregate('min', (values) => values.reduce((a, b) => Math.min(a, b))),
  max: aggregate('max', (values) => values.reduce((a, b) => Math.max(a, b))),
  count: {
    signature: 'count(list)',
    minArgs: 1,
    maxArgs: 1,
    call: ([arg]) => {
      const { value, position } = arg as Arg;
      if (typeof value === 'object' && value.kind === 'labels') return value.labels.length;
      return listArg(value, position, 'count').items.filter((item) => item.value !== null).length;
    },
  },
  argmax: best('argmax', (a, b) => a > b),
  argmin: best('argmin', (a, b) => a < b),
  where: {
    signature: 'where(list, ">", number)',
    minArgs: 3,
    maxArgs: 3,
    call: ([listArgument, operator, threshold], runtime) => {
      const source = listArg((listArgument as Arg).value, (listArgument as Arg).position, 'where');
      const op = (operator as Arg).value;
      const test = typeof op === 'string' && Object.hasOwn(COMPARATORS, op) ? COMPARATORS[op as Comparison] : undefined;
      if (!test) {
        throw new ProgramError(`where() needs a comparison in quotes (${Object.keys(COMPARATORS).map((c) => `"${c}"`).join(', ')})`, (operator as Arg).position);
      }
      const bound = numberArg(threshold as Arg, 'where');
      runtime.tick(source.items.length);
      return list(source.over, source.items.filter((item) => item.value !== null && test(item.value, bound)));
    },
  },
  diff: {
    signature: 'diff(a, b)',
    minArgs: 2,
    maxArgs: 2,
    call: ([a, b], { tick }, position) => combine((a as Arg).value, (b as Arg).value, (x, y) => Math.abs(x - y), 'diff', position, tick),
  },
  ratio: {
    signature: 'ratio(a, b)',
    minArgs: 2,
    maxArgs: 2,
    call: ([a, b], { tick }, position) => combine((a as Arg).value, (b as Arg).value, divide(position), 'ratio', position, tick),
  },
  abs: {
    signature: 'abs(x)',
    minArgs: 1,
    maxArgs: 1,
    call: ([x], { tick }, position) => mapNumeric((x as Arg).value, Math.abs, 'abs', position, tick),
  },
  round: {
    signature: 'round(x, digits)',
    minArgs: 1,
    maxArgs: 2,
    call: ([x, digits], { tick }, position) => {
      const places = digits ? numberArg(digits, 'round') : 0;
      if (!Number.isInteger(places) || places < 0 || places > MAX_ROUND_DIGITS) {
        throw new ProgramError(`round() takes a whole number of digits from 0 to ${MAX_ROUND_DIGITS}`, digits?.position ?? position);
      }
      return mapNumeric((x as Arg).value, (a) => roundTo(a, places), 'round', position, tick);
    },
  },
};

/** Every function name a program may call, for error messages and docs. */
export const KNOWN_FUNCTIONS: readonly string[] = [...Object.keys(BUILTINS), 'if', 'chart'].sort();

function cellValue(args: Arg[], runtime: Runtime, position: number): Value {
  // Three arguments address a chart of a group: value(2, "2019", "Africa").
  const [chartArg, ...rest] = args;
  const table = args.length === 3 ? runtime.chartTable(chartNumber(chartArg as Arg), position) : runtime.table;
  const [rowArg, seriesArg] = args.length === 3 ? rest : args;
  const r = rowIndex(table, rowArg as Arg);
  const s = seriesArg ? seriesIndex(table, seriesArg) : onlySeries(table, position, 'value(row) needs a series too');
  const row = table.rows[r];
  const cell = row?.values[s] ?? null;
  if (cell === null) {
    const raw = row?.raw[s] ?? '';
    throw new ProgramError(`the cell ${JSON.stringify(row?.label)} / ${JSON.stringify(table.series[s])} has no number (it holds ${JSON.stringify(raw)})`, position);
  }
  return cell;
}

function aggregate(name: string, reduce: (values: number[]) => number, emptyIsZero = false): Builtin {
  return {
    signature: `${name}(list)`,
    minArgs: 1,
    maxArgs: VARIADIC,
    call: (args, runtime, position) => {
      const values: number[] = [];
      for (const { value, position: at } of args) {
        if (typeof value === 'number') {
          values.push(value);
          continue;
        }
        const items = listArg(value, at, name).items;
        runtime.tick(items.length);
        for (const item of items) if (item.value !== null) values.push(item.value);
      }
      if (values.length === 0) {
        if (emptyIsZero) return 0;
        throw new ProgramError(`${name}() of no values: every cell in the list is missing`, position);
      }
      return finite(reduce(values), position);
    },
  };
}

/** argmax/argmin: the label of the best element; the first in table order wins a tie. */
function best(name: string, better: (a: number, b: number) => boolean): Builtin {
  return {
    signature: `${name}(list)`,
    minArgs: 1,
    maxArgs: 1,
    call: ([arg], runtime, position) => {
      const source = listArg((arg as Arg).value, (arg as Arg).position, name);
      runtime.tick(source.items.length);
      let winner: { label: string; value: number } | null = null;
      for (const item of source.items) {
        if (item.value !== null && (winner === null || better(item.value, winner.value))) winner = { label: item.label, value: item.value };
      }
      if (!winner) throw new ProgramError(`${name}() of no values: every cell in the list is missing`, position);
      return winner.label;
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? upper) + upper) / 2;
}

/** Half away from zero, as people round; the epsilon keeps 1.005 from becoming 1.00. */
function roundTo(value: number, places: number): number {
  const factor = 10 ** places;
  return (Math.sign(value) * Math.round(Math.abs(value) * factor * (1 + Number.EPSILON))) / factor;
}

function list(over: NumberList['over'], items: NumberList['items']): NumberList {
  return { kind: 'list', over, items };
}

function labels(over: LabelList['over'], names: string[]): LabelList {
  return { kind: 'labels', over, labels: names };
}

function listArg(value: Value, position: number, name: string): NumberList {
  if (typeof value === 'object' && value.kind === 'list') return value;
  const hint = typeof value === 'object' ? '; rows() and series_names() can only be counted' : '';
  throw new ProgramError(`${name}() needs a list of numbers such as series("…") or row("…"), not ${describeValue(value)}${hint}`, position);
}

function numberArg({ value, position }: Arg, name: string): number {
  if (typeof value !== 'number') throw new ProgramError(`${name}() needs a number here, not ${describeValue(value)}`, position);
  return value;
}

function labelArg({ value, position }: Arg, kind: 'row' | 'series'): string {
  if (typeof value === 'string') return value;
  // Years are labels too; a model writing value(2019) means the row "2019".
  if (typeof value === 'number') return String(value);
  throw new ProgramError(`expected a ${kind} label in quotes, not ${describeValue(value)}`, position);
}

/** A chart's 1-based position in its group, as `value(chart, …)` and `chart(n, …)` take it. */
export function chartNumber(arg: Arg): number {
  if (typeof arg.value === 'number' && Number.isInteger(arg.value) && arg.value >= 1) return arg.value;
  throw new ProgramError(`a chart is named by its position in the group (1, 2, …), not ${describeValue(arg.value)}`, arg.position);
}

function rowIndex(table: DataTable, arg: Arg): number {
  const wanted = labelArg(arg, 'row');
  const labelsOfRows = table.rows.map((row) => row.label);
  const r = findLabelIndex(labelsOfRows, wanted);
  if (r === -1) throw new ProgramError(unknownLabelMessage('row', wanted, labelsOfRows), arg.position);
  return r;
}

function seriesIndex(table: DataTable, arg: Arg): number {
  const wanted = labelArg(arg, 'series');
  const s = findLabelIndex(table.series, wanted);
  if (s === -1) throw new ProgramError(unknownLabelMessage('series', wanted, table.series), arg.position);
  return s;
}

function onlySeries(table: DataTable, position: number, what: string): number {
  if (table.series.length === 1) return 0;
  throw new ProgramError(`${what}: the table has several series (${table.series.map((name) => JSON.stringify(name)).join(', ')})`, position);
}
