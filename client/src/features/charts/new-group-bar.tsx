import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { CreateChartGroupRequestSchema, MIN_GROUP_CHARTS } from '@shared/api/chart-groups';
import type { ChartSummary } from '@shared/api/charts';
import { MAX_GROUP_CHARTS } from '@shared/table/edit';
import { errorMessage } from '../../api/http';
import { Field } from '../../ui/field';
import { useFieldErrors } from '../../ui/use-field-errors';
import { useCreateChartGroup } from './chart-groups-api';

type NewGroupBarProps = {
  /** The checked charts in the group's order (the order they were checked, then moved). */
  checked: readonly ChartSummary[];
  onReorder: (next: ChartSummary[]) => void;
  onClear: () => void;
};

/**
 * "New group" from the Charts list's checked charts: their order is the group's ("the first
 * chart" is the first checked), movable with the ↑/↓ buttons; a name and Enter makes the group.
 */
export function NewGroupBar({ checked, onReorder, onClear }: NewGroupBarProps) {
  const create = useCreateChartGroup();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const { validate, errorFor, serverField } = useFieldErrors(create.error, ['name']);
  const move = (index: number, delta: number) => {
    const next = [...checked];
    const [chart] = next.splice(index, 1);
    if (chart) next.splice(index + delta, 0, chart);
    onReorder(next);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = validate(CreateChartGroupRequestSchema, { name, chart_ids: checked.map((chart) => chart.id) });
    if (!body) return;
    create.mutate(body, {
      onSuccess: ({ group }) => {
        onClear();
        void navigate(`/charts/groups/${group.id}`);
      },
    });
  };
  const chartsError = errorFor('chart_ids');
  return (
    <form className="panel new-group" onSubmit={onSubmit} noValidate aria-labelledby="new-group-heading" data-testid="new-group">
      <h2 id="new-group-heading">
        New group <span className="muted small">({checked.length} checked; {MIN_GROUP_CHARTS}–{MAX_GROUP_CHARTS} charts of one split)</span>{' '}
        <Link to="/charts/groups" className="small">
          All groups
        </Link>
      </h2>
      {checked.length === 0 ? (
        <p className="muted small">Check charts in the list (Tab to a row's box, Space to check) to group them.</p>
      ) : (
        <ol className="new-group-charts" data-testid="new-group-charts">
          {checked.map((chart, index) => (
            <li key={chart.id}>
              <span className="mono">{chart.imgname}</span> <span className="muted small">({chart.split})</span>{' '}
              <button type="button" className="link-button" disabled={index === 0} onClick={() => move(index, -1)} aria-label={`Move ${chart.imgname} up`}>
                ↑
              </button>
              <button type="button" className="link-button" disabled={index === checked.length - 1} onClick={() => move(index, 1)} aria-label={`Move ${chart.imgname} down`}>
                ↓
              </button>
            </li>
          ))}
        </ol>
      )}
      {chartsError && (
        <p className="error" role="alert">
          {chartsError}
        </p>
      )}
      <div className="form-row">
        <Field label="Group name" error={errorFor('name')}>
          {(control) => <input {...control} name="group-name" value={name} onChange={(event) => setName(event.target.value)} placeholder="e.g. Sales and costs" />}
        </Field>
        <button type="submit" className="primary" disabled={create.isPending || checked.length < MIN_GROUP_CHARTS}>
          {create.isPending ? 'Creating…' : 'Create group'}
        </button>
        {checked.length > 0 && (
          <button type="button" className="link-button" onClick={onClear}>
            Uncheck all
          </button>
        )}
      </div>
      {create.isError && !serverField && (
        <p className="error" role="alert">
          {errorMessage(create.error)}
        </p>
      )}
    </form>
  );
}
