import { describe, expect, it } from 'vitest';
import { formatPassRate, formatPercent } from './format';

describe('percentages on screen round half-up on the decimal value', () => {
  it('formatPercent: 1.45 % shows as 1.5 %, where toFixed rounds its double 1.4499… down', () => {
    expect((1.45).toFixed(1)).toBe('1.4');
    expect(formatPercent(1.45)).toBe('1.5 %');
    expect(formatPercent(null)).toBe('—');
  });

  it('formatPassRate rounds the exact share of its counts', () => {
    // 23 / 80 = 28.75 % exactly; 23 / 80 × 100 is 28.749999999999996 in doubles, which toFixed(1) shows as 28.7.
    expect(((23 / 80) * 100).toFixed(1)).toBe('28.7');
    expect(formatPassRate({ accepted: 23, decided: 80, pass_rate: (23 / 80) * 100 })).toBe('28.8 % (23 / 80)');
    expect(formatPassRate({ accepted: 1, decided: 3, pass_rate: 100 / 3 })).toBe('33.3 % (1 / 3)');
    expect(formatPassRate({ accepted: 0, decided: 0, pass_rate: null })).toBe('none decided');
  });
});
