import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { QA_ORDERS, QaOrderSchema, RunConfigSchema, type QaOrder, type RunConfigInput } from '@shared/api/runs';
import { CHART_TYPES, CHART_TYPE_LABELS, ChartTypeSchema, type ChartType } from '@shared/domain/chart-types';
import { OFFLINE_MODEL, RUN_STAGES, RunStageSchema, type Engine, type RunStage } from '@shared/domain/generation';
import { ActionError } from '../../ui/error-messages';
import { Field } from '../../ui/field';
import { NumberField } from '../../ui/number-field';
import { SubmitButton } from '../../ui/submit-button';
import { useFieldErrors } from '../../ui/use-field-errors';
import { useChartFacets } from '../../api/charts-api';
import { EngineField } from '../../views/engine-field';
import { QA_ORDER_LABELS } from '../../views/run-progress';
import { useOpenaiAvailability, useStartRun } from '../../api/runs-api';

const STAGE_LABELS: Record<RunStage, string> = {
  both: 'Both stages',
  proposals: 'Stage 1: proposals',
  items: 'Stage 2: items',
};

/** What the form holds: numbers as typed, so a half-typed value is not lost. */
type Draft = {
  engine: Engine;
  model: string;
  stage: RunStage;
  chartType: ChartType | '';
  split: string;
  items: string;
  order: QaOrder;
  onlyNewQas: boolean;
  confirmedTypesOnly: boolean;
  proposalBatches: string;
  concurrency: string;
  temperature: string;
  budgetTokens: string;
  budgetCost: string;
  batch: boolean;
};

const INITIAL: Draft = {
  engine: 'offline',
  model: '',
  stage: 'both',
  chartType: '',
  split: '',
  items: '20',
  order: 'stratified',
  onlyNewQas: true,
  confirmedTypesOnly: false,
  proposalBatches: '1',
  concurrency: '4',
  temperature: '',
  budgetTokens: '',
  budgetCost: '',
  batch: false,
};

/** A typed number; empty is "not given" and anything else that is not a number fails validation. */
/** The form's names for the fields its errors name, where they read differently from the request's. */
const FIELD_LABELS = {
  items: 'Items (factual QAs)',
  proposal_batches: 'Proposal batches per type',
  budget_tokens: 'Budget, tokens',
  budget_cost: 'Budget, cost in $',
} as const;

const numberOrUndefined = (text: string) => (text.trim() === '' ? undefined : Number(text));

function toRequest(draft: Draft): RunConfigInput {
  const openai = draft.engine === 'openai';
  return {
    engine: draft.engine,
    model: openai && draft.model.trim() ? draft.model.trim() : undefined,
    stage: draft.stage,
    chart_type: draft.chartType || undefined,
    split: draft.split || undefined,
    items: numberOrUndefined(draft.items),
    order: draft.order,
    only_new_qas: draft.onlyNewQas,
    confirmed_types_only: draft.confirmedTypesOnly,
    proposal_batches: numberOrUndefined(draft.proposalBatches),
    concurrency: numberOrUndefined(draft.concurrency),
    temperature: openai ? numberOrUndefined(draft.temperature) : undefined,
    budget_tokens: numberOrUndefined(draft.budgetTokens) ?? null,
    budget_cost: numberOrUndefined(draft.budgetCost) ?? null,
    // Only the LLM asks through the Batch API; a box ticked before switching engine is not sent.
    batch: openai && draft.batch,
  };
}

/** The form a curator starts a generation run with; on success it opens the run's live view. */
export function StartRunForm() {
  const { available: openaiAvailable, keyMissing } = useOpenaiAvailability();
  const facets = useChartFacets();
  const start = useStartRun();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(INITIAL);
  const { validate, errorFor, serverField } = useFieldErrors(start.error, undefined, FIELD_LABELS);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const openai = draft.engine === 'openai';
  const proposalsStage = draft.stage !== 'items';
  const itemsStage = draft.stage !== 'proposals';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const config = validate(RunConfigSchema, toRequest(draft));
    if (config) start.mutate(config, { onSuccess: ({ run }) => void navigate(`/runs/${run.id}`) });
  };

  const numberField = (label: ReactNode, field: string, key: 'items' | 'proposalBatches' | 'concurrency' | 'temperature' | 'budgetTokens' | 'budgetCost', step?: string) => (
    <NumberField
      label={label}
      error={errorFor(field)}
      name={field}
      value={draft[key]}
      onChange={(v) => set(key, v)}
      inputMode="decimal"
      min="0"
      step={step ?? '1'}
    />
  );

  return (
    <form className="panel start-run" onSubmit={onSubmit} aria-labelledby="start-run-heading" noValidate data-testid="start-run-form">
      <h2 id="start-run-heading">Start a run</h2>
      <div className="form-grid">
        <EngineField
          keyless={{ value: 'offline', label: `${OFFLINE_MODEL} (no LLM)` }}
          value={draft.engine}
          onChange={(engine) => set('engine', engine)}
          openaiAvailable={openaiAvailable}
          error={errorFor('engine')}
        />
        <Field label="Stage" error={errorFor('stage')}>
          {(control) => (
            <select
              {...control}
              name="stage"
              value={draft.stage}
              onChange={(event) => {
                const stage = RunStageSchema.safeParse(event.target.value);
                if (stage.success) set('stage', stage.data);
              }}
            >
              {RUN_STAGES.map((stage) => (
                <option key={stage} value={stage}>
                  {STAGE_LABELS[stage]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Chart type" error={errorFor('chart_type')}>
          {(control) => (
            <select
              {...control}
              name="chart_type"
              value={draft.chartType}
              onChange={(event) => {
                const type = ChartTypeSchema.safeParse(event.target.value);
                set('chartType', type.success ? type.data : '');
              }}
            >
              <option value="">All types</option>
              {CHART_TYPES.map((type) => {
                const count = facets.data?.chart_types.find((t) => t.chart_type === type)?.count;
                return (
                  <option key={type} value={type}>
                    {CHART_TYPE_LABELS[type]}
                    {count !== undefined ? ` (${count} charts)` : ''}
                  </option>
                );
              })}
            </select>
          )}
        </Field>
        <Field label="Split" error={errorFor('split')}>
          {(control) => (
            <select {...control} name="split" value={draft.split} onChange={(event) => set('split', event.target.value)}>
              <option value="">All splits</option>
              {(facets.data?.splits ?? []).map(({ split, count }) => (
                <option key={split} value={split}>
                  {split} ({count})
                </option>
              ))}
            </select>
          )}
        </Field>
        {itemsStage && numberField('Items (factual QAs)', 'items', 'items')}
        {itemsStage && (
          <Field label="Which QAs" error={errorFor('order')}>
            {(control) => (
              <select
                {...control}
                name="order"
                value={draft.order}
                onChange={(event) => {
                  const order = QaOrderSchema.safeParse(event.target.value);
                  if (order.success) set('order', order.data);
                }}
              >
                {QA_ORDERS.map((order) => (
                  <option key={order} value={order}>
                    {QA_ORDER_LABELS[order]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {proposalsStage && numberField('Proposal batches per type', 'proposal_batches', 'proposalBatches')}
        {numberField('Concurrency', 'concurrency', 'concurrency')}
        {numberField(
          <>
            Budget, tokens <span className="muted">(optional)</span>
          </>,
          'budget_tokens',
          'budgetTokens',
        )}
        {numberField(
          <>
            Budget, cost in $ <span className="muted">(optional)</span>
          </>,
          'budget_cost',
          'budgetCost',
          '0.01',
        )}
        {openai && (
          <Field
            label={
              <>
                Model <span className="muted">(empty: the settings’ default)</span>
              </>
            }
            error={errorFor('model')}
          >
            {(control) => (
              <input {...control} name="model" autoComplete="off" value={draft.model} onChange={(event) => set('model', event.target.value)} />
            )}
          </Field>
        )}
        {openai && numberField(<>Temperature <span className="muted">(optional)</span></>, 'temperature', 'temperature', '0.1')}
      </div>
      {itemsStage && (
        <label className="checkbox">
          <input type="checkbox" name="only_new_qas" checked={draft.onlyNewQas} onChange={(event) => set('onlyNewQas', event.target.checked)} />
          Only factual QAs that have no item yet
        </label>
      )}
      {itemsStage && (
        <label className="checkbox">
          <input
            type="checkbox"
            name="confirmed_types_only"
            checked={draft.confirmedTypesOnly}
            onChange={(event) => set('confirmedTypesOnly', event.target.checked)}
          />
          Only charts whose type is confirmed{' '}
          <span className="muted">(leave out charts whose image may contradict the type inferred from their table; triage them under Charts → Chart types)</span>
        </label>
      )}
      {openai && (
        <label className="checkbox">
          <input type="checkbox" name="batch" checked={draft.batch} onChange={(event) => set('batch', event.target.checked)} data-testid="run-batch" /> Batch{' '}
          <span className="muted">(OpenAI Batch API: one batch per stage at the batch price, answered within 24 h)</span>
          {errorFor('batch') && <span className="field-error">{errorFor('batch')}</span>}
        </label>
      )}
      <p className="muted small engine-note" data-testid="engine-note">
        {keyMissing ? 'No OPENAI_API_KEY is set on the server, so only the offline engine can run. ' : ''}
        {openai
          ? 'Every LLM call is recorded with its tokens and cost; a budget stops the run cleanly when reached.'
          : `The offline engine (${OFFLINE_MODEL}) is rule-based: template proposals and template items whose answers the table engine computes. It calls no LLM and costs nothing.`}
      </p>
      <div className="form-actions">
        <SubmitButton pending={start.isPending} pendingLabel="Starting…">
          Start run
        </SubmitButton>
        {start.isError && !serverField && <ActionError error={start.error} />}
      </div>
    </form>
  );
}
