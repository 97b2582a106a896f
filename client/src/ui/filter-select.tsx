import type { z } from 'zod';
import { CHART_TYPES, CHART_TYPE_LABELS, ChartTypeSchema, type ChartType } from '@shared/domain/chart-types';
import { Field } from './field';

type FilterOption<T extends string> = { value: T; label: string };

type FilterSelectProps<T extends string> = {
  label: string;
  name: string;
  /** The chosen value, or '' for no filter. */
  value: T | '';
  /** Parses what the select reports; anything else clears the filter. */
  schema: z.ZodType<T>;
  /** The text of the no-filter option, e.g. "All types". */
  allLabel: string;
  options: readonly FilterOption<T>[];
  onChange: (value: T | '') => void;
};

/** An inline toolbar `<select>` that narrows a list, with a first option that lifts the filter. */
export function FilterSelect<T extends string>({ label, name, value, schema, allLabel, options, onChange }: FilterSelectProps<T>) {
  return (
    <Field label={label} inline>
      {(control) => (
        <select
          {...control}
          name={name}
          value={value}
          onChange={(event) => {
            const parsed = schema.safeParse(event.target.value);
            onChange(parsed.success ? parsed.data : '');
          }}
        >
          <option value="">{allLabel}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** Options for each of `values`, labelled by `labelOf` (the value itself by default). */
export function optionsOf<T extends string>(values: readonly T[], labelOf: (value: T) => string = (value) => value): FilterOption<T>[] {
  return values.map((value) => ({ value, label: labelOf(value) }));
}

type ChartTypeFilterProps = {
  value: ChartType | '';
  onChange: (value: ChartType | '') => void;
  /** Chart counts per type, shown beside each type and limiting the options to these; all types when left out. */
  counts?: readonly { chart_type: ChartType; count: number }[];
};

/** The "Chart type" list filter used on the charts, pool and items pages. */
export function ChartTypeFilter({ value, onChange, counts }: ChartTypeFilterProps) {
  const options = counts
    ? counts.map(({ chart_type, count }) => ({ value: chart_type, label: `${CHART_TYPE_LABELS[chart_type]} (${count})` }))
    : optionsOf(CHART_TYPES, (type) => CHART_TYPE_LABELS[type]);
  return (
    <FilterSelect
      label="Chart type"
      name="type"
      value={value}
      schema={ChartTypeSchema}
      allLabel="All types"
      options={options}
      onChange={onChange}
    />
  );
}

type ChartTypeSelectProps = {
  value: ChartType;
  onChange: (value: ChartType) => void;
  label: string;
  inline?: boolean;
  disabled?: boolean;
  error?: string;
};

/** A required choice of one chart type (no "all" option), as in forms that set a type. */
export function ChartTypeSelect({ value, onChange, label, inline = false, disabled, error }: ChartTypeSelectProps) {
  return (
    <Field label={label} inline={inline} error={error}>
      {(control) => (
        <select
          {...control}
          name="chart_type"
          value={value}
          disabled={disabled}
          onChange={(event) => {
            const type = ChartTypeSchema.safeParse(event.target.value);
            if (type.success) onChange(type.data);
          }}
        >
          {CHART_TYPES.map((type) => (
            <option key={type} value={type}>
              {CHART_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
