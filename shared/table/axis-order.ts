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
