import { describe, expect, it } from 'vitest';
import { valueReplacesDraft } from './search-box';

describe('a search field following its value', () => {
  it('keeps what is typed when the value that comes back is its own search, trimmed or not', () => {
    expect(valueReplacesDraft('que', 'que')).toBe(false);
    expect(valueReplacesDraft('sales', 'sales ')).toBe(false);
  });

  it('takes a value set from outside (the back button, a link)', () => {
    expect(valueReplacesDraft('quetzal', null)).toBe(true);
    expect(valueReplacesDraft('older', 'que')).toBe(true);
  });
});
