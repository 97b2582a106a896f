import { describe, expect, it } from 'vitest';
import { findNearDuplicate, rougeLF } from './similarity';

describe('ROUGE-L duplicate filter', () => {
  it('scores identical texts 1 and unrelated ones low', () => {
    expect(rougeLF('Double the largest slice', 'double the largest slice')).toBe(1);
    expect(rougeLF('Double the largest slice', 'Remove the last year from the axis')).toBeLessThan(0.3);
  });
  it('finds the closest pool proposal at or above the threshold', () => {
    const pool = [
      { id: 1, text: 'Raise the smallest category until it becomes the largest' },
      { id: 2, text: 'Swap the values of the two largest categories' },
    ];
    const hit = findNearDuplicate('Raise the smallest category until it is the largest one', pool, 0.7);
    expect(hit?.proposal.id).toBe(1);
    expect(hit?.score).toBeGreaterThanOrEqual(0.7);
    expect(findNearDuplicate('Halve every value in the second series', pool, 0.7)).toBeNull();
  });
});
