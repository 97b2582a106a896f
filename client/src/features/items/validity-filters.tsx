import { FlagFilterSchema, QuestionRelationFilterSchema, type QuestionRelationFilter } from '@shared/api/items';
import { FilterSelect } from '../../ui/filter-select';
import type { ItemListFilters } from './item-filters';

const RELATION_OPTIONS: readonly { value: QuestionRelationFilter; label: string }[] = [
  { value: 'same', label: 'the factual question' },
  { value: 'different', label: 'a different question' },
  { value: 'unclassified', label: 'not classified yet' },
];
const UNCHANGED_OPTIONS = [
  { value: 'true', label: 'leaves the answer unchanged' },
  { value: 'false', label: 'changes the answer' },
] as const;
const CONSISTENT_OPTIONS = [
  { value: 'false', label: 'does not do what it says' },
  { value: 'true', label: 'does what it says' },
] as const;
const CONTROL_OPTIONS = [
  { value: 'true', label: 'controls only' },
  { value: 'false', label: 'no controls' },
] as const;

export type ValidityFilterKey = 'relation' | 'unchanged' | 'consistent' | 'control';

/** The filters are empty: no validity filter narrows the list. */
export const NO_VALIDITY_FILTERS = { relation: '', unchanged: '', consistent: '', control: '' } as const satisfies Pick<ItemListFilters, ValidityFilterKey>;

export function hasValidityFilter(filters: Pick<ItemListFilters, ValidityFilterKey>): boolean {
  return Boolean(filters.relation || filters.unchanged || filters.consistent || filters.control);
}

/**
 * Filters by what makes an item a valid benchmark question: does it ask the factual question,
 * does its assumption change the answer, does its edit do what its proposal says, is it a control.
 */
export function ValidityFilters({ filters, update }: { filters: ItemListFilters; update: (change: Partial<ItemListFilters>) => void }) {
  return (
    <>
      <FilterSelect
        label="Asks"
        name="relation"
        value={filters.relation}
        schema={QuestionRelationFilterSchema}
        allLabel="Any question"
        options={RELATION_OPTIONS}
        onChange={(relation) => update({ relation })}
      />
      <FilterSelect
        label="Assumption"
        name="unchanged"
        value={filters.unchanged}
        schema={FlagFilterSchema}
        allLabel="Any effect"
        options={UNCHANGED_OPTIONS}
        onChange={(unchanged) => update({ unchanged })}
      />
      <FilterSelect
        label="Proposal"
        name="consistent"
        value={filters.consistent}
        schema={FlagFilterSchema}
        allLabel="Any fit"
        options={CONSISTENT_OPTIONS}
        onChange={(consistent) => update({ consistent })}
      />
      <FilterSelect
        label="Control"
        name="control"
        value={filters.control}
        schema={FlagFilterSchema}
        allLabel="Controls and others"
        options={CONTROL_OPTIONS}
        onChange={(control) => update({ control })}
      />
    </>
  );
}
