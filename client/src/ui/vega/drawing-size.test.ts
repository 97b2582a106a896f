import { describe, expect, it } from 'vitest';
import { fittedSize } from './drawing-size';

describe('fittedSize', () => {
  it('draws as wide as the box, at ChartQA’s aspect, rounded down to a 20 px step', () => {
    expect(fittedSize(412, 400)).toEqual({ width: 400, height: 279 });
    expect(fittedSize(419, 400)).toEqual(fittedSize(401, 400));
  });
  it('draws narrower when the box’s height is capped below its width’s share', () => {
    // A 29vh cap on a 860 px screen: 249 px high leaves room for 357 px across at 800:557.
    expect(fittedSize(412, 249)).toEqual({ width: 340, height: 237 });
  });
  it('never draws narrower than an axis needs, and says nothing of a box not laid out', () => {
    expect(fittedSize(120, 84)?.width).toBe(240);
    expect(fittedSize(0, 0)).toBeNull();
  });
});
