/**
 * Python's `float()` and `str.strip()` in TypeScript, because the reference scorers
 * (pix2struct's `relaxed_correctness` and its copies) are Python: a string is a number, and a
 * character is whitespace, exactly when Python says so. test/reference-scorers runs the Python
 * scorers on the same vectors and checks we agree.
 *
 * The two differ from JavaScript's `\s` and `Number()`, and from each other:
 * - `str.strip()` strips what `str.isspace()` calls whitespace: JS's `\s` without U+FEFF (a
 *   byte-order mark is not whitespace to Python) and with U+001C–U+001F and U+0085.
 * - `float()` replaces every non-ASCII whitespace character by a space and every non-ASCII
 *   decimal digit (Unicode category Nd: "５", "١٢") by its ASCII digit, then strips only ASCII
 *   whitespace: U+001C–U+001F, though `isspace()`, make `float()` fail.
 * Which characters are Nd comes from the JavaScript engine's Unicode tables (Node 20: Unicode 15),
 * Python's from its own (3.11: Unicode 14); they differ only in digits added since.
 */

/** `str.isspace()` outside ASCII (CPython's `Py_UNICODE_ISSPACE`). */
const WIDE_SPACE = '\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** `str.isspace()` in ASCII. */
const ASCII_SPACE = '\\t\\n\\v\\f\\r \\u001c-\\u001f';

/** `str.isspace()`'s characters, as the body of a RegExp character class. */
export const PYTHON_SPACE_CLASS = `${ASCII_SPACE}${WIDE_SPACE}`;
/** What `str.strip()` with no argument strips. */
const PYTHON_EDGE_SPACE = new RegExp(`^[${PYTHON_SPACE_CLASS}]+|[${PYTHON_SPACE_CLASS}]+$`, 'g');
const WIDE_SPACE_CHAR = new RegExp(`^[${WIDE_SPACE}]$`);
const DECIMAL_DIGIT = /^\p{Nd}$/u;
// DEL (0x7f), which CPython turns into "?", fails the grammar as it stands.
const ASCII_ONLY = /^\p{ASCII}*$/u;

const EDGE_SPACE_CHAR = new RegExp(`[${PYTHON_SPACE_CLASS}]`);

/** Python's `text.strip()`. */
export function pythonStrip(text: string): string {
  // Most answers have no space at either end: skip the replace (scoring 100,000 answers calls this four times each).
  if (text === '' || (!EDGE_SPACE_CHAR.test(text[0] ?? '') && !EDGE_SPACE_CHAR.test(text.at(-1) ?? ''))) return text;
  return text.replace(PYTHON_EDGE_SPACE, '');
}

const DIGITS = String.raw`\d(?:_?\d)*`;
/** float()'s grammar after the transformation: ASCII whitespace round a sign, digits with single `_` between them, or inf/infinity/nan. */
const FLOAT_GRAMMAR = new RegExp(
  String.raw`^[ \t\n\v\f\r]*[-+]?(?:(?:${DIGITS}\.(?:${DIGITS})?|\.${DIGITS}|${DIGITS})(?:[eE][-+]?${DIGITS})?|inf(?:inity)?|nan)[ \t\n\v\f\r]*$`,
  'i',
);

/** Python's `float(text)`, or null where it raises ValueError. */
export function pythonFloat(text: string): number | null {
  const ascii = ASCII_ONLY.test(text) ? text : toAscii(text);
  if (ascii === null || !FLOAT_GRAMMAR.test(ascii)) return null;
  const body = ascii.trim().replace(/_/g, '').toLowerCase();
  if (body.endsWith('nan')) return Number.NaN;
  if (body.endsWith('inf') || body.endsWith('infinity')) return body.startsWith('-') ? -Infinity : Infinity;
  return Number(body);
}

/**
 * CPython's `_PyUnicode_TransformDecimalAndSpaceToASCII`: a non-ASCII space becomes ' ', a
 * decimal digit its ASCII digit; any other non-ASCII character makes the string no number.
 */
function toAscii(text: string): string | null {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x7f) out += char;
    else if (WIDE_SPACE_CHAR.test(char)) out += ' ';
    else if (DECIMAL_DIGIT.test(char)) out += String(decimalValue(code));
    else return null;
  }
  return out;
}

/**
 * Unicode encodes every set of decimal digits as a run of ten, 0 to 9, and some runs are
 * adjacent (the five mathematical digit styles): a digit's value is its distance from the
 * start of the stretch of digits it is in, modulo ten.
 */
function decimalValue(code: number): number {
  let start = code;
  while (start > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
  return (code - start) % 10;
}

/**
 * Python's `round(value, digits)` for a float and 0 ≤ digits ≤ 20: the decimal nearest the
 * float's exact value, a tie going to the even last digit (`round(0.125, 2)` is 0.12,
 * `round(0.375, 2)` 0.38). `toFixed` rounds the same exact value but takes the larger on a tie
 * (0.13), and a tie is possible only where the float is exactly half a unit of the last place
 * (0.125 is; 2.675 is not, it is 2.67499…, and both give 2.67).
 */
export function pythonRound(value: number, digits: number): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 20) throw new RangeError(`pythonRound digits must be a whole number 0–20, not ${digits}`);
  // NaN and ±inf come back as they are; from 1e21 up a float has no fraction to round.
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return value;
  const magnitude = Math.abs(value);
  let rounded = magnitude.toFixed(digits);
  // toFixed(100) writes the float's exact value for every magnitude where a tie can occur (≥ 0.5·10^-digits).
  const exact = magnitude.toFixed(100);
  const point = exact.indexOf('.');
  const beyond = exact.slice(point + 1 + digits);
  if (/^50*$/.test(beyond)) {
    const truncated = exact.slice(0, digits === 0 ? point : point + 1 + digits);
    const lastDigit = Number(truncated.at(-1));
    if (lastDigit % 2 === 0) rounded = truncated;
  }
  const result = Number(rounded);
  return value < 0 || Object.is(value, -0) ? -result : result;
}
