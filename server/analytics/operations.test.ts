import { describe, expect, it } from 'vitest';
import seeds from '../../prompts/seeds.json';
import { extractOperation, itemOperation } from './operations';

/**
 * Our own proposals with the verb–object pair a person reads in each (verb infinitive, object
 * head noun singular). The expectations were written from the sentences, not from the
 * extractor's output; `read` pins what it actually returns where it misses.
 */
interface Case {
  text: string;
  expected: string | null;
  /** The extractor's known miss, kept visible: what it returns instead of `expected`. */
  read?: string | null;
}

const CASES: Case[] = [
  // The examples of issue 6.
  { text: 'Raise the smallest category until it becomes the largest.', expected: 'raise/category' },
  { text: 'Swap the values of two series for one category.', expected: 'swap/value' },
  { text: "Suppose one series' values were halved.", expected: 'halve/value' },
  // Seeds (prompts/seeds.json).
  { text: seeds.vertical_bar[1] ?? '', expected: 'reduce/bar' },
  { text: seeds.vertical_bar[3] ?? '', expected: 'swap/value' },
  { text: seeds.horizontal_bar[0] ?? '', expected: 'double/value' },
  { text: seeds.horizontal_bar[3] ?? '', expected: 'gain/category' },
  { text: seeds.grouped_bar[2] ?? '', expected: 'exchange/value' },
  { text: seeds.stacked_bar[0] ?? '', expected: 'move/segment' },
  { text: seeds.stacked_bar[2] ?? '', expected: 'shrink/segment' },
  { text: seeds.line[2] ?? '', expected: 'shift/line' },
  { text: seeds.pie[0] ?? '', expected: 'merge/slice' },
  { text: seeds.pie[2] ?? '', expected: 'transfer/share' },
  { text: seeds.area[1] ?? '', expected: 'halve/layer' },
  { text: seeds.scatter[3] ?? '', expected: 'double/value' },
  { text: seeds.other[1] ?? '', expected: 'increase/value' },
  // Written for this test, in the shapes models produce.
  { text: 'What if the largest bar were halved?', expected: 'halve/bar' },
  { text: 'Let the second-largest bar grow by a third, then ask how the ranking changes.', expected: 'grow/bar' },
  { text: 'Within one legend group, swap the second-smallest and tallest categories.', expected: 'swap/category' },
  { text: 'Assume that the sales figure for 2019 doubled.', expected: 'double/figure' },
  { text: 'Consider a scenario where the second series grows by 20 percent each year.', expected: 'grow/series' },
  { text: 'Consider removing the largest slice.', expected: 'remove/slice' },
  { text: 'Move 5 percentage points from the smallest slice to the second-smallest slice.', expected: 'move/point' },
  { text: 'Imagine that every bar lost 5 units.', expected: 'lose/bar' },
  { text: 'Make every slice equal in size.', expected: 'make/slice' },
  { text: 'Let the x coordinate of every point be negated.', expected: 'negate/coordinate' },
  { text: 'The smallest bar is tripled.', expected: 'triple/bar' },
  { text: 'Hold the final year at the previous year\'s level.', expected: 'hold/year' },
  // Known misses: "had" as a full verb reads as an auxiliary, so no operation is found.
  { text: 'Suppose that the pie had one more slice equal to the smallest one.', expected: 'have/slice', read: null },
  { text: 'Pretend the chart had no values for 2010.', expected: 'have/value', read: null },
];

const show = (text: string) => {
  const op = extractOperation(text);
  return op ? `${op.verb}/${op.noun}` : null;
};

/** The share of cases read exactly as a person reads them; issue 6 asks for at least this. */
const REQUIRED_ACCURACY = 0.85;

describe('extractOperation', () => {
  it.each(CASES)('reads "$text"', ({ text, expected, read }) => {
    expect(show(text)).toBe(read === undefined ? expected : read);
  });

  it(`reads at least ${REQUIRED_ACCURACY * 100}% of our proposals exactly`, () => {
    const exact = CASES.filter((c) => show(c.text) === c.expected).length;
    expect(exact / CASES.length).toBeGreaterThanOrEqual(REQUIRED_ACCURACY);
    expect(exact).toBe(CASES.length - CASES.filter((c) => c.read !== undefined).length);
  });

  it('reads every seed of the pool as some operation', () => {
    const texts = Object.values(seeds).flat();
    expect(texts.filter((text) => extractOperation(text) === null)).toEqual([]);
  });

  it('returns null for text naming no operation', () => {
    expect(extractOperation('')).toBeNull();
    expect(extractOperation('Double it.')).toBeNull();
    expect(extractOperation('What a chart!')).toBeNull();
  });

  it('falls back to the assumption for an item without a proposal', () => {
    expect(itemOperation(null, 'Suppose the value of Japan were doubled.')).toEqual({ verb: 'double', noun: 'value' });
    expect(itemOperation('Remove the tallest bar.', 'Suppose the value of Japan were doubled.')).toEqual({ verb: 'remove', noun: 'bar' });
  });
});
