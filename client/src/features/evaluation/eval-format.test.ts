import { describe, expect, it } from 'vitest';
import { formatScore, formatVariance } from './eval-format';

describe('formatScore and formatVariance', () => {
  it('keep two decimals, rounding half-up on the decimal value', () => {
    expect(formatScore(43.13)).toBe('43.13%');
    expect(formatScore(1.005)).toBe('1.01%');
    expect(formatVariance(8.345)).toBe('8.35');
    expect(formatScore(null)).toBe('—');
  });
});
