import { describe, expect, it } from 'vitest';
import { parseId } from './parse-id';

describe('parseId', () => {
  it('reads a positive integer from a route or search parameter', () => {
    expect(parseId('12')).toBe(12);
  });

  it('is null for anything that cannot name a record', () => {
    for (const param of [undefined, null, '', '0', '-3', '1.5', 'abc']) expect(parseId(param)).toBeNull();
  });
});
