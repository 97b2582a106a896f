import { describe, expect, it } from 'vitest';
import { ItemListQuerySchema } from '@shared/api/items';
import { readItemFilters, toItemQuery, writeItemFilters } from './item-filters';

describe('the items list’s validity filters in the URL', () => {
  it('survive a round trip through the URL and reach the API under its names', () => {
    const none = readItemFilters(new URLSearchParams());
    const url = writeItemFilters(none, { relation: 'different', unchanged: 'true', consistent: 'false', control: 'false' });
    expect(url.toString()).toBe('relation=different&unchanged=true&consistent=false&control=false');
    const query = toItemQuery(readItemFilters(url));
    expect(query).toMatchObject({ question_relation: 'different', answer_unchanged: 'true', proposal_consistent: 'false', is_control: 'false' });
    expect(ItemListQuerySchema.parse(query)).toMatchObject({ question_relation: 'different', is_control: 'false' });
  });

  it('read the unclassified relation, and ignore values the API does not know', () => {
    expect(readItemFilters(new URLSearchParams('relation=unclassified')).relation).toBe('unclassified');
    const junk = readItemFilters(new URLSearchParams('relation=other&unchanged=yes&consistent=1&control=maybe'));
    expect(junk).toMatchObject({ relation: '', unchanged: '', consistent: '', control: '' });
    expect(toItemQuery(junk)).toMatchObject({ question_relation: undefined, answer_unchanged: undefined, proposal_consistent: undefined, is_control: undefined });
  });
});

describe('the work list’s search, flags, sort and cursor in the URL', () => {
  it('round-trip, and reach the API under its names', () => {
    const none = readItemFilters(new URLSearchParams());
    expect(none).toMatchObject({ q: '', lint: '', bias: '', stale: '', sort: 'newest', cursor: '', page: 1 });
    const url = writeItemFilters(none, { q: '  tyre revenue ', lint: 'error', bias: 'unchanged_answer', stale: 'true', sort: 'status' });
    expect(url.toString()).toBe('q=tyre+revenue&lint=error&bias=unchanged_answer&stale=true&sort=status');
    const query = ItemListQuerySchema.parse(toItemQuery(readItemFilters(url)));
    expect(query).toMatchObject({ q: 'tyre revenue', lint: 'error', bias: 'unchanged_answer', stale: 'true', sort: 'status', cursor: undefined });
  });

  it('keep a cursor with its page number, and drop both on any other change or without the cursor', () => {
    const filters = readItemFilters(new URLSearchParams('status=pending'));
    const turned = writeItemFilters(filters, { cursor: 'abc', page: 3 });
    expect(turned.toString()).toBe('status=pending&cursor=abc&page=3');
    expect(toItemQuery(readItemFilters(turned))).toMatchObject({ cursor: 'abc', status: 'pending' });
    expect(writeItemFilters(readItemFilters(turned), { lint: 'any' }).toString()).toBe('status=pending&lint=any');
    expect(readItemFilters(new URLSearchParams('page=4')).page).toBe(1);
    expect(readItemFilters(new URLSearchParams('sort=random&lint=some&bias=x&stale=1'))).toMatchObject({ sort: 'newest', lint: '', bias: '', stale: '' });
  });
});

describe('the assignment filters in the URL', () => {
  it('round-trip assigned, split and retired, and reach the API under its names', () => {
    const none = readItemFilters(new URLSearchParams());
    expect(none).toMatchObject({ assigned: '', split: '', retired: '' });
    const url = writeItemFilters(none, { assigned: 'queue:night shift', split: 'test', retired: 'false' });
    expect(url.toString()).toBe('assigned=queue%3Anight+shift&split=test&retired=false');
    const query = ItemListQuerySchema.parse(toItemQuery(readItemFilters(url)));
    expect(query).toMatchObject({ assigned: 'queue:night shift', split: 'test', retired: 'false' });
    expect(readItemFilters(new URLSearchParams('retired=maybe')).retired).toBe('');
  });
});
