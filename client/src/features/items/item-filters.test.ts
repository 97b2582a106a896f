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
