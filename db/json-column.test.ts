import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BadJsonColumnError, parseJsonColumn, parseNullableJsonColumn } from './json-column';

const Flags = z.array(z.string());
const at = { table: 'hqa_items', column: 'bias_flags', id: 7 };

describe('parseJsonColumn', () => {
  it('returns the value its schema reads', () => {
    expect(parseJsonColumn(Flags, '["a","b"]', at)).toEqual(['a', 'b']);
    expect(parseNullableJsonColumn(Flags, null, at)).toBeNull();
  });

  it('names the table, column and row of text that is not JSON', () => {
    expect(() => parseJsonColumn(Flags, '["a",', at)).toThrow(/^hqa_items\.bias_flags of row 7: not JSON/);
  });

  it('names the table, column, row and the failing path of JSON of the wrong shape', () => {
    let thrown: unknown;
    try {
      parseJsonColumn(Flags, '["a", 3]', at);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BadJsonColumnError);
    expect((thrown as BadJsonColumnError).at).toEqual(at);
    expect((thrown as Error).message).toMatch(/^hqa_items\.bias_flags of row 7: not of its shape \(1: /);
  });
});
