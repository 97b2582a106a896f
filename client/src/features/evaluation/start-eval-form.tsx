import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { StartEvalRequestSchema, type EvalMode, type StartEvalRequest } from '../../../../shared/api/evaluations';
import { errorMessage } from '../../api/http';
import { Field } from '../../ui/field';
import { fieldErrorsOf, serverFieldMessage, serverFieldOf, type FieldErrors } from '../../ui/form-errors';
import { useHealth } from '../runs/runs-api';
import { useStartEval } from './eval-api';
import { MODE_HINTS, MODE_LABELS } from './eval-format';
import { evalRunPath } from './eval-runs-table';
import { ModeRadios } from './mode-radios';

type StartEngine = StartEvalRequest['engine'];

/** What the form holds: numbers as typed, so a half-typed value is not lost. */
type Draft = { engine: StartEngine; model: string; mode: EvalMode; concurrency: string; limit: string };

const INITIAL: Draft = { engine: 'factual-baseline', model: '', mode: 'hqa', concurrency: '4', limit: '' };

/** Empty is "not given"; anything else that is not a number fails validation on its field. */
const numberOrUndefined = (text: string) => (text.trim() === '' ? undefined : Number(text));

function toRequest(draft: Draft): StartEvalRequest {
  return {
    engine: draft.engine,
    // The factual baseline records its own name; a model typed before switching engine is not sent.
    model: draft.engine === 'openai' && draft.model.trim() !== '' ? draft.model : undefined,
    mode: draft.mode,
    concurrency: numberOrUndefined(draft.concurrency),
    limit: numberOrUndefined(draft.limit),
  };
}

/**
 * A curator starts an evaluation run over the accepted items. The page stays put: the run
 * appears in the list below and fills in live, so several modes can be started in a row.
 */
export function StartEvalForm() {
  const health = useHealth();
  const start = useStartEval();
  const [draft, setDraft] = useState<Draft>(INITIAL);
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const openaiAvailable = health.data?.engine === 'openai';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = StartEvalRequestSchema.safeParse(toRequest(draft));
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return;
    }
    setErrors({});
    start.mutate(parsed.data);
  };

  // A server error about a field the form shows goes under it; anything else beside the button.
  const shownFields = ['engine', 'mode', 'concurrency', 'limit', ...(draft.engine === 'openai' ? ['model'] : [])];
  const fieldOfError = serverFieldOf(start.error);
  const serverField = fieldOfError !== undefined && shownFields.includes(fieldOfError) ? fieldOfError : undefined;
  const errorFor = (field: string) => errors[field] ?? (start.error && serverField === field ? serverFieldMessage(start.error) : undefined);

  return (
    <form className="panel" onSubmit={onSubmit} aria-labelledby="start-eval-heading" noValidate data-testid="start-eval-form">
      <h3 id="start-eval-heading">Start a run</h3>
      <div className="form-grid">
        <Field label="Engine" error={errorFor('engine')}>
          {(control) => (
            <select
              {...control}
              name="engine"
              value={draft.engine}
              onChange={(event) => set('engine', event.target.value === 'openai' ? 'openai' : 'factual-baseline')}
            >
              <option value="factual-baseline">Factual baseline (no LLM)</option>
              <option value="openai" disabled={!openaiAvailable}>
                LLM (OpenAI API){openaiAvailable ? '' : ': no key'}
              </option>
            </select>
          )}
        </Field>
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
        <Field label="Concurrency" error={errorFor('concurrency')}>
          {(control) => (
            <input
              {...control}
              name="concurrency"
              type="number"
              inputMode="numeric"
              min="1"
              max="32"
              className="number-input"
              value={draft.concurrency}
              onChange={(event) => set('concurrency', event.target.value)}
            />
          )}
        </Field>
        <Field
          label={
            <>
              Limit <span className="muted">(optional: the first N items)</span>
            </>
          }
          error={errorFor('limit')}
        >
          {(control) => (
            <input
              {...control}
              name="limit"
              type="number"
              inputMode="numeric"
              min="1"
              className="number-input"
              value={draft.limit}
              onChange={(event) => set('limit', event.target.value)}
            />
          )}
        </Field>
      </div>
      <ModeRadios name="start-mode" value={draft.mode} onChange={(mode) => set('mode', mode)} error={errorFor('mode')} />
      <p className="muted small engine-note" data-testid="eval-engine-note">
        {health.data && !openaiAvailable ? 'No OPENAI_API_KEY is set on the server, so only the factual baseline can run. ' : ''}
        {draft.engine === 'openai'
          ? 'Every call’s tokens and cost are recorded. '
          : 'The factual baseline answers every question with the item’s factual label, calling no LLM: the reference point for the bias rate. '}
        {MODE_LABELS[draft.mode]} {MODE_HINTS[draft.mode]}
      </p>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={start.isPending}>
          {start.isPending ? 'Starting…' : 'Start run'}
        </button>
        {start.isError && !serverField && (
          <span className="error" role="alert">
            {errorMessage(start.error)}
          </span>
        )}
        {start.isSuccess && !start.isPending && (
          <span data-testid="start-eval-result">
            Started <Link to={evalRunPath(start.data.run.id)}>run #{start.data.run.id}</Link>.
          </span>
        )}
      </div>
    </form>
  );
}
