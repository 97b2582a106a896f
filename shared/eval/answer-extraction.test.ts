import { describe, expect, it } from 'vitest';
import { extractAnswer } from './answer-extraction';

describe('extractAnswer', () => {
  it('takes the last "Answer:" line', () => {
    expect(extractAnswer('Germany rises to 45.\nAnswer: Germany')).toBe('Germany');
    expect(extractAnswer('Answer: 3\nchecking again…\nFinal answer: **42**.')).toBe('42');
  });
  it('falls back to the last non-empty line, stripping emphasis, quotes and a full stop', () => {
    expect(extractAnswer('The total would be\n"Yes".\n\n')).toBe('Yes');
    expect(extractAnswer('  12.5  ')).toBe('12.5');
  });
  it('keeps inner punctuation and decimals', () => {
    expect(extractAnswer('Answer: 3.14')).toBe('3.14');
    expect(extractAnswer('Answer: No, but I plan to soon')).toBe('No, but I plan to soon');
  });
  it('gives null for an empty reply', () => {
    expect(extractAnswer('')).toBeNull();
    expect(extractAnswer('\n  \n')).toBeNull();
  });
});
