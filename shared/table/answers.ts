import { z } from 'zod';
import { pythonFloat, pythonStrip } from './python-float';

/**
 * Answer types and ChartQA's relaxed correctness — the one implementation the verifier, the
 * offline engine and evaluation share, so a score means the same thing everywhere.
 */

export const ANSWER_TYPES = ['integer', 'decimal', 'boolean', 'text'] as const;
export const AnswerTypeSchema = z.enum(ANSWER_TYPES);
export type AnswerType = z.infer<typeof AnswerTypeSchema>;

/** ChartQA's tolerance: a numeric answer within 5% of the target counts as correct. */
export const RELAXED_TOLERANCE = 0.05;

const INTEGER = /^[-+]?(\d{1,3}(,\d{3})+|\d+)%?$/;
const DECIMAL = /^[-+]?(\d{1,3}(,\d{3})+|\d+)?\.\d+%?$/;

/** Yes/No (any case) is boolean; `12`, `-3`, `1,200`, `45%` integer; `3.5`, `0.08`, `3.5%` decimal; the rest text. */
export function classifyAnswer(answer: string): AnswerType {
  const text = answer.trim();
  if (/^(yes|no)$/i.test(text)) return 'boolean';
  if (INTEGER.test(text)) return 'integer';
  if (DECIMAL.test(text)) return 'decimal';
  return 'text';
}

/**
 * ChartQA's relaxed correctness, as its reference implementation (pix2struct's
 * `relaxed_correctness`, used by the ChartQA paper) defines it: both strings are read as
 * floats the way Python's `float()` reads them, a trailing `%` dividing by 100; when both
 * parse and the target is non-zero, the prediction is correct within `tolerance` relative
 * error. Otherwise the strings must match case-insensitively. One deliberate difference: both
 * strings are first stripped of whitespace as Python's `str.strip()` strips it (the reference
 * reads " 12" as 12 but " Yes" as no match for "Yes"; VLMEvalKit's copy strips the
 * prediction). docs/scoring-rules.md tables every difference.
 */
export function relaxedCorrect(prediction: string, target: string, tolerance = RELAXED_TOLERANCE): boolean {
  const predictionText = pythonStrip(prediction);
  const targetText = pythonStrip(target);
  const predicted = toFloat(predictionText);
  const expected = toFloat(targetText);
  // Python's `if target_float:` is false for 0.0 only; NaN is truthy and then never within tolerance.
  if (predicted !== null && expected !== null && expected !== 0) {
    return Math.abs(predicted - expected) / Math.abs(expected) <= tolerance;
  }
  return predictionText.toLowerCase() === targetText.toLowerCase();
}

/** The reference's `_to_float`: `text.rstrip('%')` drops every trailing `%` before dividing by 100. */
export function toFloat(text: string): number | null {
  if (text.endsWith('%')) {
    const value = pythonFloat(text.replace(/%+$/, ''));
    return value === null ? null : value / 100;
  }
  return pythonFloat(text);
}
