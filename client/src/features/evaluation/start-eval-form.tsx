import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { EVAL_MODES, StartEvalRequestSchema, type EvalMode, type StartEvalRequest } from '@shared/api/evaluations';
import { ActionError } from '../../ui/error-messages';
import { Field } from '../../ui/field';
import { NumberField } from '../../ui/number-field';
import { SubmitButton } from '../../ui/submit-button';
import { useFieldErrors } from '../../ui/use-field-errors';
import { EngineField } from '../../views/engine-field';
import { useOpenaiAvailability } from '../../api/runs-api';
import { useStartEval } from './eval-api';
import { MODE_HINTS, MODE_LABELS } from './eval-format';
import { evalRunPath } from './eval-runs-table';
import { ConditionChecks } from './mode-radios';

type StartEngine = StartEvalRequest['engine'];

/** What the form holds: numbers as typed, so a half-typed value is not lost. */
type Draft = { engine: StartEngine; model: string; conditions: EvalMode[]; concurrency: string; limit: string; batch: boolean };

const INITIAL: Draft = { engine: 'factual-baseline', model: '', conditions: ['hqa'], concurrency: '4', limit: '', batch: false };

/** Empty is "not given"; anything else that is not a number fails validation on its field. */
const numberOrUndefined = (text: string) => (text.trim() === '' ? undefined : Number(text));

function toRequest(draft: Draft): StartEvalRequest {
  return {
    engine: draft.engine,
    // The factual baseline records its own name; a model typed before switching engine is not sent.
    model: draft.engine === 'openai' && draft.model.trim() !== '' ? draft.model : undefined,
    // In the vocabulary's order whatever the clicking order: the run's first condition is its score.
    conditions: EVAL_MODES.filter((mode) => draft.conditions.includes(mode)),
    concurrency: numberOrUndefined(draft.concurrency),
    limit: numberOrUndefined(draft.limit),
    // Only the LLM asks through the Batch API; a box ticked before switching engine is not sent.
    batch: draft.engine === 'openai' && draft.batch,
  };
}

/**
 * A curator starts an evaluation run over the accepted items. The page stays put: the run
 * appears in the list below and fills in live, so several modes can be started in a row.
 */
export function StartEvalForm() {
  const { available: openaiAvailable, keyMissing } = useOpenaiAvailability();
  const start = useStartEval();
  const [draft, setDraft] = useState<Draft>(INITIAL);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  // The model field shows only for the LLM: a server error about it otherwise goes beside the button.
  const shownFields = ['engine', 'conditions', 'concurrency', 'limit', ...(draft.engine === 'openai' ? ['model', 'batch'] : [])];
  const { validate, errorFor, serverField } = useFieldErrors(start.error, shownFields);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const request = validate(StartEvalRequestSchema, toRequest(draft));
    if (request) start.mutate(request);
  };

  return (
    <form className="panel" onSubmit={onSubmit} aria-labelledby="start-eval-heading" noValidate data-testid="start-eval-form">
      <h3 id="start-eval-heading">Start a run</h3>
      <div className="form-grid">
        <EngineField
          keyless={{ value: 'factual-baseline', label: 'Factual baseline (no LLM)' }}
          value={draft.engine}
          onChange={(engine) => set('engine', engine)}
          openaiAvailable={openaiAvailable}
          error={errorFor('engine')}
        />
        {draft.engine === 'openai' && (
          <Field label="Model" error={errorFor('model')}>
            {(control) => (
              <input
                {...control}
                name="model"
                autoComplete="off"
                placeholder="a vision model, e.g. gpt-4o"
                value={draft.model}
                onChange={(event) => set('model', event.target.value)}
              />
            )}
          </Field>
        )}
        {draft.engine === 'openai' && (
          <label className="checkbox">
            <input type="checkbox" name="batch" checked={draft.batch} onChange={(event) => set('batch', event.target.checked)} data-testid="eval-batch" /> Batch{' '}
            <span className="muted">(OpenAI Batch API: half price, answers within 24 h)</span>
            {errorFor('batch') && <span className="field-error">{errorFor('batch')}</span>}
          </label>
        )}
        <NumberField
          label="Concurrency"
          error={errorFor('concurrency')}
          name="concurrency"
          min="1"
          max="32"
          value={draft.concurrency}
          onChange={(text) => set('concurrency', text)}
        />
        <NumberField
          label={
            <>
              Limit <span className="muted">(optional: the first N items)</span>
            </>
          }
          error={errorFor('limit')}
          name="limit"
          min="1"
          value={draft.limit}
          onChange={(text) => set('limit', text)}
        />
      </div>
      <ConditionChecks value={draft.conditions} onChange={(conditions) => set('conditions', conditions)} error={errorFor('conditions')} />
      <p className="muted small engine-note" data-testid="eval-engine-note">
        {keyMissing ? 'No OPENAI_API_KEY is set on the server, so only the factual baseline can run. ' : ''}
        {draft.engine === 'openai'
          ? 'Every call’s tokens and cost are recorded. '
          : 'The factual baseline answers every question with the item’s factual label, calling no LLM: the reference point for the bias rate. '}
        {draft.conditions.map((mode) => `${MODE_LABELS[mode]} ${MODE_HINTS[mode]}`).join(' ')}
      </p>
      <div className="form-actions">
        <SubmitButton pending={start.isPending} pendingLabel="Starting…">
          Start run
        </SubmitButton>
        {start.isError && !serverField && <ActionError error={start.error} />}
        {start.isSuccess && !start.isPending && (
          <span data-testid="start-eval-result">
            Started <Link to={evalRunPath(start.data.run.id)}>run #{start.data.run.id}</Link>.
          </span>
        )}
      </div>
    </form>
  );
}
