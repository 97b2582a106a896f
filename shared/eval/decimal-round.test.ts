import { describe, expect, it } from 'vitest';
import { formatHalfUp, NotADecimalError, percentHalfUp, quotientHalfUp, roundHalfUp, toDecimal } from './decimal-round';

describe('roundHalfUp', () => {
  it('rounds the decimal a number stands for, half away from zero', () => {
    expect(roundHalfUp(1.005, 2)).toBe(1.01);
    expect(roundHalfUp(12.345, 2)).toBe(12.35);
    expect(roundHalfUp(-12.345, 2)).toBe(-12.35);
    expect(roundHalfUp('43.125', 2)).toBe(43.13);
    expect(roundHalfUp(2.5, 0)).toBe(3);
  });

  it('does not round a value just below the half up (cutting to 12 significant digits did)', () => {
    expect(roundHalfUp(0.0049999999999999, 2)).toBe(0);
    expect(roundHalfUp('43.124999999999999', 2)).toBe(43.12);
  });

  it('never gives −0', () => {
    expect(Object.is(roundHalfUp(-0.001, 2), 0)).toBe(true);
  });
});

describe('formatHalfUp', () => {
  it('prints fixed decimals rounded half-up where toFixed rounds the binary double', () => {
    // 1.005 is 1.00499999999999989… in binary: toFixed prints 1.00.
    expect((1.005).toFixed(2)).toBe('1.00');
    expect(formatHalfUp(1.005, 2)).toBe('1.01');
    expect(formatHalfUp(8.345, 2)).toBe('8.35');
    expect(formatHalfUp(-0.001, 2)).toBe('0.00');
    expect(formatHalfUp(7, 2)).toBe('7.00');
    expect(formatHalfUp(1e21, 1)).toBe('1000000000000000000000.0');
  });
});

describe('quotientHalfUp and percentHalfUp', () => {
  it('round the exact quotient, not its double', () => {
    // 57 / 200 × 100 is 28.5 exactly, but 28.499999999999996 in doubles.
    expect((57 / 200) * 100).toBe(28.499999999999996);
    expect(percentHalfUp(57, 200, 0)).toBe(29);
    expect(percentHalfUp(1, 3, 2)).toBe(33.33);
    expect(percentHalfUp(2, 3, 2)).toBe(66.67);
    expect(percentHalfUp(1, 8, 2)).toBe(12.5);
    expect(quotientHalfUp('3657', '84.80', 2)?.toString()).toBe('43.13');
    expect(quotientHalfUp(-1, 8, 2)?.toString()).toBe('-0.13');
  });

  it('look past any number of digits: a quotient a hair below the half rounds down', () => {
    // 12344999999999999 / 10^17 × 100 = 12.344999999999999 %
    expect(percentHalfUp('12344999999999999', '100000000000000000', 2)).toBe(12.34);
    expect(percentHalfUp('12345000000000000', '100000000000000000', 2)).toBe(12.35);
  });

  it('are null for an empty denominator', () => {
    expect(percentHalfUp(0, 0, 2)).toBeNull();
    expect(quotientHalfUp(1, '0.00', 2)).toBeNull();
  });
});

describe('toDecimal', () => {
  it('reads a number as its shortest decimal string and refuses what is not a finite decimal', () => {
    expect(toDecimal(0.1).toString()).toBe('0.1');
    expect(toDecimal(1e-7).toString()).toBe('0.0000001');
    expect(() => toDecimal(Number.NaN)).toThrow(NotADecimalError);
    expect(() => toDecimal(Infinity)).toThrow('not a decimal number: Infinity');
    expect(() => toDecimal('12,5')).toThrow('not a decimal number: "12,5"');
  });
});
