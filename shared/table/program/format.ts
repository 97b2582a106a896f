import { trimFraction } from '../cell-format';

/** Answers carry at most this many decimals: more is float noise, not chart precision. */
export const ANSWER_DECIMALS = 4;

/** A program's result: what an answer can be. */
export type Scalar = number | string | boolean;

/**
 * The answer text for a result: numbers rounded to four decimals without trailing zeros or
 * exponent notation (below 1e21), booleans as ChartQA's `Yes`/`No`, strings unchanged.
 */
export function formatAnswer(value: Scalar): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return value;
  return formatNumber(value);
}

/** From here on doubles hold no fraction digits, and toFixed would print binary noise (…683968). */
const WHOLE_NUMBERS_ONLY = 1e15;

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= WHOLE_NUMBERS_ONLY) return String(Math.round(value));
  const text = trimFraction(value.toFixed(ANSWER_DECIMALS));
  return text === '-0' ? '0' : text;
}
