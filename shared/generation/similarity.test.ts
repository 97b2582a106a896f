import { describe, expect, it } from 'vitest';
import { l as rougeL } from 'js-rouge';
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
  it('scores as the library does case-insensitively, its sentences and tokens remembered per text', () => {
    const texts = [
      'Shift one line up by a constant amount in every period so that it overtakes another line.',
      'Dr. Smith raised U.S. GDP by 5.5%. Then it FELL! "Quoted" e.g. this one',
      'ÉCOLE Größe İstanbul: the first sentence. A second one? Yes.',
      "Suppose the median slice halved its share, the difference coming from the largest slice, so that the answer can't be memorised.",
    ];
    for (const a of texts) {
      for (const b of texts) {
        // Twice: the second call reads the remembered forms.
        const expected = rougeL(a, b, { beta: 1, caseSensitive: false });
        expect(rougeLF(a, b)).toBeCloseTo(expected, 12);
        expect(rougeLF(a, b)).toBeCloseTo(expected, 12);
      }
    }
  });
});
