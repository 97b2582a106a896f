import { describe, expect, it } from 'vitest';
import { plural } from './phrasing';

describe('plural', () => {
  it('inflects irregular and regular nouns of chart tables', () => {
    expect(plural('criterion')).toBe('criteria');
    expect(plural('category')).toBe('categories');
    expect(plural('country')).toBe('countries');
    expect(plural('vendor')).toBe('vendors');
    expect(plural('box')).toBe('boxes');
    expect(plural('series')).toBe('series');
  });
});
