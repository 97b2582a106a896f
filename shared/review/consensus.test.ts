import { describe, expect, it } from 'vitest';
import { agreement } from './agreement';
import { consensus } from './consensus';

describe('consensus', () => {
  it('waits for k reviews', () => {
    expect(consensus(['accept'], 2, 'majority')).toBeNull();
    expect(consensus([], 1, 'majority')).toBeNull();
  });
  it('decides a single review with k = 1', () => {
    expect(consensus(['accept'], 1, 'unanimous')).toBe('accepted');
    expect(consensus(['reject'], 1, 'majority')).toBe('rejected');
  });
  it('unanimous: any disagreement goes to adjudication', () => {
    expect(consensus(['accept', 'accept', 'accept'], 3, 'unanimous')).toBe('accepted');
    expect(consensus(['reject', 'reject'], 2, 'unanimous')).toBe('rejected');
    expect(consensus(['accept', 'accept', 'reject'], 3, 'unanimous')).toBe('needs_adjudication');
  });
  it('majority: the larger side wins, a tie goes to adjudication', () => {
    expect(consensus(['accept', 'accept', 'reject'], 3, 'majority')).toBe('accepted');
    expect(consensus(['reject', 'reject', 'accept'], 3, 'majority')).toBe('rejected');
    expect(consensus(['accept', 'reject'], 2, 'majority')).toBe('needs_adjudication');
  });
});

describe('agreement (hand-computed)', () => {
  it("matches Fleiss' kappa worked by hand", () => {
    // Items (pass count of 3): [3,0] [0,3] [2,1] [1,2]
    // P_i = 1, 1, 1/3, 1/3 → P̄ = 2/3; p_pass = 6/12 = 0.5 → P̄e = 0.5; kappa = (2/3 − 0.5)/0.5 = 1/3
    const result = agreement([
      [true, true, true],
      [false, false, false],
      [true, true, false],
      [true, false, false],
    ]);
    expect(result.items).toBe(4);
    expect(result.percent_agreement).toBeCloseTo(66.667, 2);
    expect(result.fleiss_kappa).toBeCloseTo(1 / 3, 10);
  });
  it('handles items with different numbers of reviews and skips single reviews', () => {
    // [pass, pass] P=1; [pass, fail] P=0; single review ignored. P̄ = 0.5; p_pass = 3/4 → Pe = 0.625; kappa = (0.5−0.625)/0.375 = −1/3
    const result = agreement([[true, true], [true, false], [false]]);
    expect(result.items).toBe(2);
    expect(result.percent_agreement).toBeCloseTo(50, 10);
    expect(result.fleiss_kappa).toBeCloseTo(-1 / 3, 10);
  });
  it('gives kappa null when every verdict agrees on one category, and nothing without pairs', () => {
    expect(agreement([[true, true], [true, true]])).toEqual({ items: 2, percent_agreement: 100, fleiss_kappa: null });
    expect(agreement([[true]])).toEqual({ items: 0, percent_agreement: null, fleiss_kappa: null });
  });
});
