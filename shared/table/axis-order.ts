import { parseCellValue } from './cell';

/**
 * Row labels that form an ordered axis — years, seasons, quarters — as charts draw them.
 * The applier keeps such an axis in order when it adds a row, and the lint reports an edit
 * that leaves it out of order (a line chart would double back).
 */

export type AxisDirection = 'ascending' | 'descending';

/** A label's position on an ordered axis: a number or year (`2019`, `2018*`), a season (`2019/20`), a quarter (`Q1 2018`). */
export function orderKey(label: string): number | null {
  const number = parseCellValue(label);
  if (number !== null) return number;
  const text = label.trim().replace(/\*+$/, '');
  const season = /^(\d{4})\s*\/\s*\d{2,4}$/.exec(text);
  if (season?.[1]) return Number(season[1]);
  const quarter = /^Q([1-4])\s+(\d{4})$/i.exec(text);
  if (quarter?.[1] && quarter[2]) return Number(quarter[2]) + (Number(quarter[1]) - 1) / 4;
  return null;
}

/** The direction of a strictly ordered axis of at least two labels, or null when the labels are not one. */
export function axisDirection(labels: readonly string[]): AxisDirection | null {
  if (labels.length < 2) return null;
  const keys: number[] = [];
  for (const label of labels) {
    const key = orderKey(label);
    if (key === null) return null;
    keys.push(key);
  }
  const steps = keys.slice(1).map((key, i) => key - (keys[i] ?? key));
  if (steps.every((step) => step > 0)) return 'ascending';
  if (steps.every((step) => step < 0)) return 'descending';
  return null;
}

/**
 * Where a new row goes: at its place on an ordered axis, else at the end. Edits have no
 * position field, and "suppose 2021 had …" on a chart listing 2020 … 2008 means the top.
 */
export function insertionIndex(labels: readonly string[], label: string): number {
  const direction = axisDirection(labels);
  const key = orderKey(label);
  if (direction === null || key === null) return labels.length;
  const after = labels.findIndex((other) => {
    const otherKey = orderKey(other) ?? 0;
    return direction === 'ascending' ? otherKey > key : otherKey < key;
  });
  return after === -1 ? labels.length : after;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** A month's index (0–11) from its full or three-letter name ("Sep", "Sept." too), or -1. */
export function monthIndex(name: string): number {
  const word = name.toLowerCase().replace(/\.$/, '');
  return MONTHS.findIndex((month) => month === word || (word.length >= 3 && month.startsWith(word)));
}

/**
 * Labels that are months one after another ("Jan" … "Jun", "Jan 2020" …, either direction; a run
 * without years may pass December): each label's position in months, or null. Charts draw months
 * as categories, so they are no time axis to `axisDirection`, yet a period follows the last.
 */
export function monthRun(labels: readonly string[]): { positions: number[]; withYear: boolean; ascending: boolean } | null {
  const parsed = labels.map((label) => /^([A-Za-z]{3,9}\.?)(?:\s+(\d{4}))?$/.exec(label.trim().replace(/\*+$/, '')));
  if (labels.length < 2 || parsed.some((match) => match === null || monthIndex(match[1] ?? '') === -1)) return null;
  const withYear = parsed.every((match) => match?.[2] !== undefined);
  if (!withYear && parsed.some((match) => match?.[2] !== undefined)) return null;
  const positions = parsed.map((match) => monthIndex(match?.[1] ?? '') + (withYear ? Number(match?.[2]) * 12 : 0));
  const steps = positions.slice(1).map((position, i) => position - (positions[i] ?? position));
  const ascending = steps.every((step) => step === 1 || (!withYear && step === -11));
  const descending = steps.every((step) => step === -1 || (!withYear && step === 11));
  if (!ascending && !descending) return null;
  return { positions, withYear, ascending };
}

/**
 * The labels from earliest to latest when they are periods — an ordered axis (years, seasons,
 * quarters) or a run of months — else null: "the change between the last two points" needs them.
 */
export function periodOrder(labels: readonly string[]): string[] | null {
  const direction = axisDirection(labels);
  if (direction !== null) return direction === 'ascending' ? [...labels] : [...labels].reverse();
  const months = monthRun(labels);
  if (months === null) return null;
  return months.ascending ? [...labels] : [...labels].reverse();
}
