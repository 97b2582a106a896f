import { BiasFilterSchema, FlagFilterSchema, LintFilterSchema, QuestionRelationFilterSchema, type BiasFilter, type QuestionRelationFilter } from '@shared/api/items';
import { BIAS_FLAGS, type BiasFlag } from '@shared/generation/bias-guards';
import { TableStateSchema, type TableState } from '@shared/table-provenance/table-state';
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

const LINT_OPTIONS = [
  { value: 'error', label: 'has lint errors' },
  { value: 'any', label: 'has lint findings' },
  { value: 'none', label: 'no lint findings' },
] as const;
/** In the words of the list's bias tags (views/item-tags.tsx). */
const BIAS_FLAG_LABELS: Record<BiasFlag, string> = {
  unchanged_answer: 'answer = factual label',
  changed_recomputed: 'recomputed ≠ factual label',
};
const BIAS_OPTIONS: readonly { value: BiasFilter; label: string }[] = [
  { value: 'any', label: 'any bias flag' },
  { value: 'none', label: 'no bias flag' },
  ...BIAS_FLAGS.map((flag) => ({ value: flag, label: BIAS_FLAG_LABELS[flag] })),
];
const STALE_OPTIONS = [
  { value: 'true', label: 'table changed since' },
  { value: 'false', label: 'not stale' },
] as const;

const TABLE_OPTIONS: readonly { value: TableState; label: string }[] = [
  { value: 'unconfirmed', label: 'not confirmed (unverified)' },
  { value: 'confirmed', label: 'confirmed' },
];

export type ValidityFilterKey = 'relation' | 'unchanged' | 'consistent' | 'control' | 'lint' | 'bias' | 'stale' | 'table';

/** The filters are empty: no validity filter narrows the list. */
export const NO_VALIDITY_FILTERS = {
  relation: '',
  unchanged: '',
  consistent: '',
  control: '',
  lint: '',
  bias: '',
  stale: '',
  table: '',
} as const satisfies Pick<ItemListFilters, ValidityFilterKey>;

export function hasValidityFilter(filters: Pick<ItemListFilters, ValidityFilterKey>): boolean {
  return Boolean(filters.relation || filters.unchanged || filters.consistent || filters.control || filters.lint || filters.bias || filters.stale || filters.table);
}

/**
 * Filters by what makes an item a valid benchmark question: does it ask the factual question,
 * does its assumption change the answer, does its edit do what its proposal says, is it a control,
 * did the lint or a bias guard flag it, did its chart's table change since it was made.
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
      <FilterSelect
        label="Lint"
        name="lint"
        value={filters.lint}
        schema={LintFilterSchema}
        allLabel="Any lint"
        options={LINT_OPTIONS}
        onChange={(lint) => update({ lint })}
      />
      <FilterSelect
        label="Bias guards"
        name="bias"
        value={filters.bias}
        schema={BiasFilterSchema}
        allLabel="Any flags"
        options={BIAS_OPTIONS}
        onChange={(bias) => update({ bias })}
      />
      <FilterSelect
        label="Stale"
        name="stale"
        value={filters.stale}
        schema={FlagFilterSchema}
        allLabel="Stale or not"
        options={STALE_OPTIONS}
        onChange={(stale) => update({ stale })}
      />
      <FilterSelect
        label="Table"
        name="table"
        value={filters.table}
        schema={TableStateSchema}
        allLabel="Any table"
        options={TABLE_OPTIONS}
        onChange={(table) => update({ table })}
      />
    </>
  );
}
