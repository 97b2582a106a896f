import { relaxedCorrect } from './answers';
import { normalizeLabel } from './labels';
import type { DataTable } from './model';
import { ANSWER_DECIMALS, formatNumber, type Scalar } from './program/format';

/**
 * How the verifier compares answers. ChartQA's relaxed rule (5% on numbers) is right for
 * amounts, but a label is an identity: the year 2018 is not "within 5%" of 2020, and an
 * argmax that lands on the wrong year must not pass. So an answer that is a row or series
 * label of the table compares as a label — tolerantly spelled, exactly identified — and only
 * plain numbers keep the relaxed rule.
 */

/** A label as the verifier compares it: tolerant spelling (case, spaces, footnote `*`, quotes, a final period). */
export function labelKey(text: string): string {
  return normalizeLabel(text.trim().replace(/^["'“”‘’]+|["'“”‘’]+$/g, '').replace(/\.$/, ''));
}

/** Every row label and series name of the tables, as label keys. */
function labelKeys(tables: readonly DataTable[]): Set<string> {
  const keys = new Set<string>();
  for (const table of tables) {
    for (const row of table.rows) keys.add(labelKey(row.label));
    for (const name of table.series) keys.add(labelKey(name));
  }
  return keys;
}

/**
 * Whether `answer` (an item's or a reviewer's text) agrees with `computed` (a program's
 * result). A label result, or either side spelling a label of `tables` (years included when
 * they are row labels), compares as a label; booleans as Yes/No; numbers relaxed.
 */
export function answersAgree(computed: Scalar, answer: string, tables: readonly DataTable[]): boolean {
  if (typeof computed === 'boolean') return labelKey(answer) === (computed ? 'yes' : 'no');
  const computedText = typeof computed === 'number' ? formatNumber(computed) : computed;
  const labels = labelKeys(tables);
  if (typeof computed === 'string' || labels.has(labelKey(computedText)) || labels.has(labelKey(answer))) {
    return labelKey(computedText) === labelKey(answer);
  }
  return relaxedCorrect(answer, computedText);
}

/**
 * Whether two answers written as text agree (an item's answer and a factual label): either one
 * spelling a label of `tables` compares as a label, else ChartQA's relaxed rule.
 */
export function textAnswersAgree(a: string, b: string, tables: readonly DataTable[]): boolean {
  const labels = labelKeys(tables);
  if (labels.has(labelKey(a)) || labels.has(labelKey(b))) return labelKey(a) === labelKey(b);
  return relaxedCorrect(a, b);
}

/** Whether two program results are the same answer under the rule above (before vs after an edit). */
export function resultsAgree(before: Scalar, after: Scalar, tables: readonly DataTable[]): boolean {
  if (typeof before !== typeof after) return false;
  return answersAgree(after, typeof before === 'boolean' ? (before ? 'Yes' : 'No') : typeof before === 'number' ? formatNumber(before) : before, tables);
}

/** Digits beyond the table's own precision an unrounded answer may keep (an average of whole numbers: 2 decimals). */
export const EXTRA_ANSWER_DECIMALS = 2;

/** The most fraction digits any numeric cell of the table is written with. */
export function tablePrecision(table: DataTable): number {
  let digits = 0;
  for (const row of table.rows) {
    row.raw.forEach((raw, s) => {
      if (row.values[s] === null || row.values[s] === undefined) return;
      digits = Math.max(digits, /\.(\d+)/.exec(raw.replace(/,/g, ''))?.[1]?.length ?? 0);
    });
  }
  return digits;
}

/**
 * A numeric answer as the benchmark ships it: rounded to the table's precision plus at most
 * EXTRA_ANSWER_DECIMALS digits (never more than the formatter's ANSWER_DECIMALS), so an
 * average reads "28.67", not "28.6667", and a difference of 1-decimal values is not "143.5283".
 */
export function roundForTable(value: number, table: DataTable): number {
  const digits = Math.min(ANSWER_DECIMALS, tablePrecision(table) + EXTRA_ANSWER_DECIMALS);
  const factor = 10 ** digits;
  return (Math.sign(value) * Math.round(Math.abs(value) * factor * (1 + Number.EPSILON))) / factor;
}
