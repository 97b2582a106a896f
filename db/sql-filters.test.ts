import { describe, expect, it } from 'vitest';
import { containsPattern, whereClause } from './sql-filters';

describe('whereClause', () => {
  it('keeps only the conditions with a value, binding each as a parameter', () => {
    expect(whereClause([
      { sql: 'a = @a', param: 'a', value: 1 },
      { sql: 'b = @b', param: 'b', value: undefined },
      { sql: 'c = @c', param: 'c', value: 'x' },
    ])).toEqual({ sql: 'WHERE a = @a AND c = @c', params: { a: 1, c: 'x' } });
    expect(whereClause([{ sql: 'b = @b', param: 'b', value: '' }])).toEqual({ sql: '', params: {} });
  });
  it('escapes LIKE wildcards in search text', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
    expect(containsPattern(undefined)).toBeUndefined();
  });
});
