import { classifyAnswer, relaxedCorrect } from './answers';
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

/**
 * A number as a person writes an answer (ChartQA style: `12`, `-3.5`, `1,200`, `45%`): its
 * value, how many decimals it is written with, and whether it is a percentage. Null for
 * anything else (Yes/No, a label, "not a number at all").
 */
export function writtenNumber(answer: string): { value: number; decimals: number; percent: boolean } | null {
  const text = answer.trim();
  const kind = classifyAnswer(text);
  if (kind !== 'integer' && kind !== 'decimal') return null;
  const bare = text.replace(/,/g, '').replace(/%$/, '');
  const value = Number(bare);
  if (!Number.isFinite(value)) return null;
  return { value, decimals: /\.(\d+)$/.exec(bare)?.[1]?.length ?? 0, percent: text.endsWith('%') };
}

/** `value` in units of the `decimals`-th decimal, rounded half away from zero (float noise such as 41.45 → 414.49999… taken up). */
function scaled(value: number, decimals: number): number {
  return Math.sign(value) * Math.round(Math.abs(value) * 10 ** decimals * (1 + Number.EPSILON));
}

/**
 * Whether a gold answer — a person's: a hand-written item's answer, a reviewer's corrected
 * answer, an adjudicator's final answer — agrees with the verifier's result. Numbers agree at
 * the answer's own precision: the result rounded to as many decimals as the answer is written
 * with (41.48 is 41.5, but 418.8 is not 400), never within the 5 % tolerance ChartQA grants a
 * model's prediction (`answersAgree`). A percentage may be written of the ratio (0.45 is 45%).
 * Booleans compare as Yes/No, anything else as a label (tolerantly spelled, exactly identified).
 * `computed` may be the recomputed answer as text (a stored verdict's).
 */
export function goldAnswerAgrees(computed: Scalar, answer: string): boolean {
  if (typeof computed === 'boolean') return labelKey(answer) === (computed ? 'yes' : 'no');
  const written = writtenNumber(answer);
  const value = typeof computed === 'number' ? computed : (writtenNumber(computed)?.value ?? null);
  if (written !== null && value !== null) {
    const target = scaled(written.value, written.decimals);
    return scaled(value, written.decimals) === target || (written.percent && scaled(value * 100, written.decimals) === target);
  }
  return labelKey(typeof computed === 'number' ? formatNumber(computed) : computed) === labelKey(answer);
}

/**
 * Whether two people's answers are the same answer (reviewers agreeing on a correction): the
 * same number however written (`1,200`, `1200.0`; `45%` and `45`), else the same label or Yes/No. Unlike
 * `goldAnswerAgrees`, neither side is rounded: 241 and 241.3 are two answers.
 */
export function sameAnswer(a: string, b: string): boolean {
  const x = writtenNumber(a);
  const y = writtenNumber(b);
  if (x !== null && y !== null) return x.value === y.value;
  return labelKey(a) === labelKey(b);
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
