import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { CreateProposalRequestSchema, PROPOSAL_SCOPES, ProposalScopeSchema, type Proposal, type ProposalScope } from '@shared/api/pool';
import { CHART_TYPE_LABELS, type ChartType } from '@shared/domain/chart-types';
import { errorMessage } from '../../api/http';
import { Field } from '../../ui/field';
import { ChartTypeSelect } from '../../ui/filter-select';
import { useFieldErrors } from '../../ui/use-field-errors';
import { useAddSeed } from '../../api/pool-api';
import { SCOPE_LABELS } from './pool-filters';

/** What became of the last seed added: in the pool, or kept aside as a near-copy. */
function AddedNotice({ proposal }: { proposal: Proposal }) {
  if (proposal.status === 'duplicate' && proposal.duplicate_of !== null) {
    return (
      <p className="notice notice-warning" role="status" data-testid="seed-added">
        Kept as <Link to={`/pool/${proposal.id}`}>#{proposal.id}</Link>, a <strong>duplicate</strong> of{' '}
        <Link to={`/pool/${proposal.duplicate_of}`}>#{proposal.duplicate_of}</Link>
        {proposal.similarity !== null && ` (ROUGE-L ${proposal.similarity.toFixed(2)})`}: it is not active.
      </p>
    );
  }
  return (
    <p className="notice" role="status" data-testid="seed-added">
      Added seed <Link to={`/pool/${proposal.id}`}>#{proposal.id}</Link> to the {CHART_TYPE_LABELS[proposal.chart_type]} pool
      {proposal.scope === 'group' && ' for chart groups'}.
    </p>
  );
}

/** A curator's hand-written seed proposal for one chart type. Enter adds it. */
export function AddSeedForm({ defaultType }: { defaultType: ChartType | '' }) {
  const add = useAddSeed();
  const [chartType, setChartType] = useState<ChartType>(defaultType || 'vertical_bar');
  const [text, setText] = useState('');
  // A group seed is for questions over a chart group; its chart type is that of the chart its assumption edits.
  const [scope, setScope] = useState<ProposalScope>('chart');
  const { validate, errorFor, serverField } = useFieldErrors(add.error);
  const [added, setAdded] = useState<Proposal | null>(null);

  const submit = () => {
    const request = validate(CreateProposalRequestSchema, { chart_type: chartType, text, scope });
    if (!request) return;
    setAdded(null);
    add.mutate(request, {
      onSuccess: ({ proposal }) => {
        setAdded(proposal);
        if (proposal.status !== 'duplicate') setText('');
      },
    });
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit();
  };
  // One sentence: Enter adds it rather than starting a new line.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      submit();
    }
  };


  return (
    <form className="panel add-seed" onSubmit={onSubmit} aria-labelledby="add-seed-heading" noValidate data-testid="add-seed-form">
      <h2 id="add-seed-heading">Add a seed proposal</h2>
      <div className="form-row">
        <ChartTypeSelect label="Chart type" value={chartType} onChange={setChartType} error={errorFor('chart_type')} />
        <Field label="Scope" error={errorFor('scope')}>
          {(control) => (
            <select {...control} name="scope" value={scope} onChange={(event) => setScope(ProposalScopeSchema.catch('chart').parse(event.target.value))}>
              {PROPOSAL_SCOPES.map((value) => (
                <option key={value} value={value}>
                  {SCOPE_LABELS[value]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Seed text" className="grow" error={errorFor('text')}>
          {(control) => (
            <textarea
              {...control}
              name="text"
              rows={2}
              placeholder="A general counterfactual operation, e.g. “Raise the smallest category until it becomes the largest.”"
              value={text}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={onKeyDown}
            />
          )}
        </Field>
        <button type="submit" className="primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add seed'}
        </button>
      </div>
      {add.isError && !serverField && (
        <p className="error" role="alert">
          {errorMessage(add.error)}
        </p>
      )}
      {added && <AddedNotice proposal={added} />}
    </form>
  );
}
