import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { splitsApi } from '@shared/api/splits';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import { FilterSelect } from '../../ui/filter-select';

const SplitValueSchema = z.string().min(1);

/**
 * The Items list's `split` filter as a select of the splits (the splits API, curators': the
 * page shows reviewers a removable chip instead). Each split is shown by its label with its
 * item count; archived ones are marked. A split from a link that is not listed stays selectable.
 */
export function SplitFilter({ value, onChange }: { value: string; onChange: (split: string) => void }) {
  // The Splits page's key: an import or a rename there refreshes this list too.
  const splits = useQuery({ queryKey: queryKeys.splits(), queryFn: () => call(splitsApi.list) });
  const options = (splits.data ?? []).map((split) => ({
    value: split.name,
    label: `${split.label ?? split.name} (${split.items.toLocaleString('en-US')})${split.archived_at !== null ? ' · archived' : ''}`,
  }));
  if (value && !options.some((option) => option.value === value)) options.push({ value, label: value });
  return <FilterSelect label="Split" name="split" value={value} schema={SplitValueSchema} allLabel="All splits" options={options} onChange={onChange} />;
}
