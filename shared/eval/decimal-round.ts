import Big from 'big.js';

/**
 * Rounding as the papers print it: half-up (half away from zero) on the DECIMAL value, not on
 * its nearest binary double. `(84.80 − 48.23) / 84.80 × 100` is exactly 43.125 and prints as
 * 43.13, but in binary floats it is 43.12499999999999, which `toFixed(2)` prints as 43.12.
 *
 * A number is read as its shortest decimal string (`String(x)`: 0.1 is "0.1", not
 * 0.1000000000000000055…), which is the decimal the writer of the number meant; a quotient
 * (a share of counts, a decline rate, a variance) is rounded on the exact rational, never on
 * a rounded intermediate.
 */

/** A decimal as text ("83.60", "-1e-7") or a number read as its shortest decimal string. */
export type DecimalInput = string | number;

// A constructor of our own, so the settings below never reach another user of big.js. Division
// to 0 places rounding half-up rounds a quotient exactly: big.js's long division looks at the
// exact next digit, which is ≥ 5 exactly when the remainder is at least half the divisor.
const Exact = Big();
Exact.DP = 0;
Exact.RM = Big.roundHalfUp;
// Never exponential notation in toString: callers parse or print it as a plain decimal.
Exact.NE = -1_000_000;
Exact.PE = 1_000_000;

/** A text or number that is not a finite decimal. */
export class NotADecimalError extends Error {
  constructor(readonly value: unknown) {
    super(`not a decimal number: ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
    this.name = 'NotADecimalError';
  }
}

/** The exact decimal a text or number stands for; throws NotADecimalError for NaN, ±Infinity or a malformed text. */
export function toDecimal(value: DecimalInput | Big): Big {
  if (value instanceof Big) return new Exact(value);
  if (typeof value === 'number' && !Number.isFinite(value)) throw new NotADecimalError(value);
  const text = typeof value === 'number' ? String(value) : value.trim();
  try {
    return new Exact(text);
  } catch {
    throw new NotADecimalError(value);
  }
}

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 100) throw new RangeError(`decimals must be an integer from 0 to 100, got ${decimals}`);
}

/** 0 for −0: a figure that rounds to zero prints as "0.00", not "-0.00". */
const positiveZero = (value: Big): Big => (value.eq(0) ? new Exact(0) : value);

/** `value` rounded half-up to `decimals` places, as an exact decimal. */
export function roundDecimal(value: DecimalInput | Big, decimals: number): Big {
  checkDecimals(decimals);
  return positiveZero(toDecimal(value).round(decimals, Big.roundHalfUp));
}

/** `value` rounded half-up on its decimal value to `decimals` places, as a number. */
export function roundHalfUp(value: DecimalInput, decimals: number): number {
  return roundDecimal(value, decimals).toNumber();
}

/** `value` rounded half-up on its decimal value, printed with exactly `decimals` places (what `toFixed` would print, rounded the paper's way). */
export function formatHalfUp(value: DecimalInput, decimals: number): string {
  return roundDecimal(value, decimals).toFixed(decimals);
}

/**
 * numerator / denominator, rounded half-up on the exact quotient to `decimals` places; null when
 * the denominator is 0 (the quotient is undefined).
 */
export function quotientHalfUp(numerator: DecimalInput | Big, denominator: DecimalInput | Big, decimals: number): Big | null {
  checkDecimals(decimals);
  const divisor = toDecimal(denominator);
  if (divisor.eq(0)) return null;
  // Scale by 10^decimals, divide to a whole number (rounding half-up on the exact remainder), scale back: no step rounds twice.
  const whole = toDecimal(numerator).times(new Exact(`1e${decimals}`)).div(divisor);
  return positiveZero(whole.times(new Exact(`1e-${decimals}`)));
}

/** part / whole × 100, rounded half-up on the exact rational; null for an empty whole. */
export function percentHalfUp(part: DecimalInput, whole: DecimalInput, decimals: number): number | null {
  return quotientHalfUp(toDecimal(part).times(100), whole, decimals)?.toNumber() ?? null;
}
