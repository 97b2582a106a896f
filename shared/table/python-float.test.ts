import { describe, expect, it } from 'vitest';
import { pythonFloat, pythonRound, pythonStrip } from './python-float';

// Each value checked by hand in Python 3.11 (`float(s)`, `s.strip()`).
describe('pythonFloat', () => {
  it('reads ASCII numbers as float() does', () => {
    expect(pythonFloat(' 12.5 ')).toBe(12.5);
    expect(pythonFloat('1_000.5')).toBe(1000.5);
    expect(pythonFloat('1e1_0')).toBe(1e10);
    expect(pythonFloat('-iNfInItY')).toBe(Number.NEGATIVE_INFINITY);
    expect(pythonFloat('+nan')).toBeNaN();
    expect(pythonFloat('1e400')).toBe(Number.POSITIVE_INFINITY);
    for (const text of ['1_.5', '_1', '1_', '1__0', '0x10', 'in f', '1e', '', '.', '1 2', '1,200']) expect(pythonFloat(text), text).toBeNull();
  });

  it('reads every Unicode decimal digit as its ASCII digit', () => {
    expect(pythonFloat('５')).toBe(5);
    expect(pythonFloat('١٢')).toBe(12);
    expect(pythonFloat('٣.٥')).toBe(3.5);
    expect(pythonFloat('१२')).toBe(12);
    // The mathematical digits are five adjacent runs of ten: bold 1 2, and monospace 9.
    expect(pythonFloat('\u{1d7cf}\u{1d7d0}')).toBe(12);
    expect(pythonFloat('\u{1d7ff}')).toBe(9);
    expect(pythonFloat('೦')).toBe(0);
  });

  it('takes no other number-like character', () => {
    // ROMAN NUMERAL TWELVE, SUPERSCRIPT TWO, MINUS SIGN, ARABIC DECIMAL SEPARATOR, FULLWIDTH PERCENT.
    for (const text of ['Ⅻ', '²', '\u22125', '٣٫٥', '５％']) expect(pythonFloat(text), text).toBeNull();
  });

  it("strips Python's whitespace, not JavaScript's", () => {
    expect(pythonFloat('\u00a012\u3000')).toBe(12);
    expect(pythonFloat('\u008512')).toBe(12);
    expect(pythonFloat('\u2028 5')).toBe(5);
    // JS \s takes U+FEFF; Python does not. U+001C–U+001F are isspace() but float() strips only ASCII " \t\n\v\f\r".
    expect(pythonFloat('\ufeff12')).toBeNull();
    expect(pythonFloat('12\ufeff')).toBeNull();
    expect(pythonFloat('\u001c5')).toBeNull();
    expect(pythonFloat('5\u001f')).toBeNull();
    expect(pythonFloat('\u200b5')).toBeNull();
  });
});

describe('pythonStrip', () => {
  it('strips what str.strip() strips', () => {
    expect(pythonStrip('\u001c a \u001f')).toBe('a');
    expect(pythonStrip('\u0085a\u00a0')).toBe('a');
    expect(pythonStrip('\ufeffa')).toBe('\ufeffa');
    expect(pythonStrip('\u200ba')).toBe('\u200ba');
    expect(pythonStrip(' a b ')).toBe('a b');
  });
});

describe('pythonRound', () => {
  // Each expected value is Python 3's round(x, d).
  it('rounds half to even on the float’s exact value, where toFixed takes the larger', () => {
    const cases: Array<[number, number, number]> = [
      [0.125, 2, 0.12],
      [0.375, 2, 0.38],
      [0.625, 2, 0.62],
      [-0.125, 2, -0.12],
      [1000.125, 2, 1000.12],
      [2.675, 2, 2.67],
      [1.005, 2, 1],
      [12.345, 1, 12.3],
      [0.0125, 3, 0.013],
      [2.5, 0, 2],
      [3.5, 0, 4],
      [0.5, 0, 0],
      [1e22, 2, 1e22],
    ];
    for (const [value, digits, expected] of cases) expect(pythonRound(value, digits), `round(${value}, ${digits})`).toBe(expected);
  });

  it('keeps the sign of a negative that rounds to zero, and passes nan and inf through', () => {
    expect(Object.is(pythonRound(-0.001, 2), -0)).toBe(true);
    expect(pythonRound(Number.NaN, 2)).toBeNaN();
    expect(pythonRound(-Infinity, 2)).toBe(-Infinity);
    expect(() => pythonRound(1, 1.5)).toThrow(RangeError);
  });
});
