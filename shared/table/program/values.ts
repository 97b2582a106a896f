import { labelsMatch } from '../labels';
import { ProgramError } from './errors';
import { formatNumber, type Scalar } from './format';

/**
 * Runtime values. Lists remember the label of each element (the row label for a series'
 * cells, the series name for a row's cells) so argmax/argmin can answer with a label.
 */
export interface ListItem {
  label: string;
  /** null: a missing cell, skipped by aggregates. */
  value: number | null;
}

/** Which labels a list's elements carry: `over: 'rows'` is a series (one cell per row). */
export type ListAxis = 'rows' | 'series';

export interface NumberList {
  kind: 'list';
  over: ListAxis;
  items: ListItem[];
}

/** rows() and series_names(): labels without numbers, only countable. */
export interface LabelList {
  kind: 'labels';
  over: ListAxis;
  labels: string[];
}

export type Value = Scalar | NumberList | LabelList;

/** Relative tolerance of `==`, so `0.1 + 0.2 == 0.3` and values after arithmetic compare as people expect. */
export const EQUALITY_TOLERANCE = 1e-9;

export function isList(value: Value): value is NumberList {
  return typeof value === 'object' && value.kind === 'list';
}

export function describeValue(value: Value): string {
  if (typeof value === 'number') return `the number ${formatNumber(value)}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'boolean') return `the boolean ${value}`;
  if (value.kind === 'list') return `a list of ${value.items.length} values over ${value.over}`;
  return `a list of ${value.labels.length} ${value.over === 'rows' ? 'row labels' : 'series names'}`;
}

export function approxEqual(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) <= EQUALITY_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

export type Comparison = '>' | '<' | '>=' | '<=' | '==' | '!=';

/** Number comparisons, tolerant like `==` so `>` and `>=` never disagree with it. */
export const COMPARATORS: Record<Comparison, (a: number, b: number) => boolean> = {
  '>': (a, b) => a > b && !approxEqual(a, b),
  '<': (a, b) => a < b && !approxEqual(a, b),
  '>=': (a, b) => a > b || approxEqual(a, b),
  '<=': (a, b) => a < b || approxEqual(a, b),
  '==': approxEqual,
  '!=': (a, b) => !approxEqual(a, b),
};

/** Equality across types where it makes sense: a label compared with a year written as a number. */
export function valuesEqual(left: Value, right: Value, position: number): boolean {
  if (typeof left === 'number' && typeof right === 'number') return approxEqual(left, right);
  if (typeof left === 'boolean' && typeof right === 'boolean') return left === right;
  const a = labelLike(left);
  const b = labelLike(right);
  if (a !== null && b !== null) return labelsMatch(a, b);
  throw new ProgramError(`cannot compare ${describeValue(left)} with ${describeValue(right)}`, position);
}

function labelLike(value: Value): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatNumber(value);
  return null;
}

/** Throws unless the result of arithmetic is a usable number. */
export function finite(value: number, position: number): number {
  if (!Number.isFinite(value)) throw new ProgramError('the result is too large to be a number', position);
  return value;
}
