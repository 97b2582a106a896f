import { describe, expect, it } from 'vitest';
import { findLabelIndex, labelsMatch, listLabels, normalizeLabel, unknownLabelMessage } from './labels';

describe('labels', () => {
  it('compares ignoring case, surrounding and repeated spaces, and trailing footnote marks', () => {
    expect(normalizeLabel('  Fitness/Health  ')).toBe('fitness/health');
    expect(normalizeLabel('Other*')).toBe('other');
    expect(normalizeLabel('2019/20 * ')).toBe('2019/20');
    expect(labelsMatch('South  Korea', 'south korea')).toBe(true);
    expect(labelsMatch('Korea', 'South Korea')).toBe(false);
  });

  it('prefers an exact match over a tolerant one', () => {
    expect(findLabelIndex(['2018*', '2018'], '2018')).toBe(1);
    expect(findLabelIndex(['2018*', '2018'], '2018*')).toBe(0);
    expect(findLabelIndex(['2018*'], '2018')).toBe(0);
    expect(findLabelIndex(['A'], 'B')).toBe(-1);
  });

  it('lists valid labels, capped', () => {
    expect(listLabels(['a', 'b'])).toBe('"a", "b"');
    expect(listLabels(Array.from({ length: 45 }, (_, i) => `r${i}`))).toMatch(/"r39" and 5 more$/);
    expect(unknownLabelMessage('series', 'X', [])).toBe('unknown series "X": the table has no series');
  });
});
