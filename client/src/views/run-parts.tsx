import type { Run } from '@shared/api/runs';
import type { RunStatus } from '@shared/domain/generation';
import { runProgress, type RunProgress, type RunProgressInput } from '@shared/generation/run-progress';
import { formatTime } from '../ui/format';
import { engineLabel, formatCost } from './run-progress';

/** A run's status in its colour; evaluation runs share it under their own test id (`testId`). */
export function RunStatusTag({ status, testId = 'run-status' }: { status: RunStatus; testId?: string }) {
  return (
    <span className={`status-tag run-status-${status}`} data-testid={testId}>
      {status}
    </span>
  );
}

/** The engine honestly named: the offline engine is rule-based and calls no LLM. */
export function EngineTag({ run }: { run: Pick<Run, 'engine' | 'model'> }) {
  return (
    <span className={`engine-tag engine-${run.engine}`} data-testid="run-engine">
      {engineLabel(run.engine, run.model)}
    </span>
  );
}

/**
 * The figure last shown for each run or job, so that a later one never shows less (a pause that
 * retries failed tasks): the list and the run's page share it, as they show the same run.
 */
const shownProgress = new Map<string, RunProgress>();

/** A run's (or a job's) progress as last shown, moved on by its new counts and never back. */
function progressOf(key: string, run: RunProgressInput): RunProgress {
  const figure = runProgress(run, shownProgress.get(key) ?? null);
  shownProgress.set(key, figure);
  return figure;
}

function caption({ state, done, failed, total, retrying }: RunProgress): string {
  const counts = `${done} done · ${failed} failed · ${total} total${retrying > 0 ? ` · ${retrying} back in the queue to retry` : ''}`;
  return state === 'planning' ? `Planning: ${done + failed} of ${total} Stage 1 tasks finished; the items are planned when Stage 1 ends` : counts;
}

/**
 * Finished tasks as a bar: done in one colour, failed in another, out of the planned total, with a
 * percent that never goes backwards (`runProgress`): while a run still plans, no percent at all.
 * A job planned whole at its start (table extraction, chart types) leaves out `plan_complete`.
 * `compact` drops the caption (list rows).
 */
export function RunProgressBar({
  run,
  kind = 'run',
  compact = false,
}: {
  run: Pick<Run, 'id' | 'status' | 'tasks_total' | 'tasks_done' | 'tasks_failed'> & { plan_complete?: boolean };
  /** Keeps a job's figure apart from a run's of the same id. */
  kind?: string;
  compact?: boolean;
}) {
  const figure = progressOf(`${kind}:${run.id}`, { ...run, plan_complete: run.plan_complete ?? true });
  const { done, failed, total, state, percent } = figure;
  const pct = (n: number) => (total > 0 ? `${(100 * n) / total}%` : '0%');
  const text = caption(figure);
  return (
    <div className={compact ? 'run-progress compact' : 'run-progress'}>
      <div
        className={state === 'planning' ? 'progress-track planning' : 'progress-track'}
        role="progressbar"
        aria-label={`Tasks of run ${run.id}`}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={state === 'planning' ? undefined : Math.min(figure.settled, total)}
        aria-valuetext={percent === null ? text : `${percent}% · ${text}`}
        data-testid="run-progress"
        data-state={state}
        data-percent={percent ?? undefined}
        data-done={done}
        data-failed={failed}
        data-total={total}
        title={text}
      >
        {state !== 'planning' && (
          <>
            <span className="progress-done" style={{ width: pct(done) }} />
            <span className="progress-failed" style={{ width: pct(failed) }} />
          </>
        )}
      </div>
      {!compact && (
        <p className="progress-caption" data-testid="run-progress-caption">
          {percent !== null && (
            <>
              <strong>{percent}%</strong> ·{' '}
            </>
          )}
          {text}
        </p>
      )}
    </div>
  );
}

/**
 * What a run's model calls used, as entries of a `dl.figures`: generation and evaluation runs
 * alike (only generation runs count the prompt tokens an endpoint's cache served).
 */
export function UsageFigures({ run }: { run: Pick<Run, 'prompt_tokens' | 'completion_tokens' | 'cost'> & Partial<Pick<Run, 'cached_tokens'>> }) {
  const tokens = run.prompt_tokens + run.completion_tokens;
  const cached = run.cached_tokens ?? 0;
  return (
    <>
      <div>
        <dt>Tokens</dt>
        <dd title={`${run.prompt_tokens} prompt${run.cached_tokens === undefined ? '' : ` (${cached} of them cached)`} + ${run.completion_tokens} completion`}>
          {tokens.toLocaleString()}
          <span className="muted small">
            {' '}
            ({run.prompt_tokens.toLocaleString()} in{cached > 0 ? `, ${cached.toLocaleString()} of them cached` : ''} / {run.completion_tokens.toLocaleString()} out)
          </span>
        </dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd>{formatCost(run.cost)}</dd>
      </div>
    </>
  );
}

/** When a run was created (and by whom, where known) and finished, as entries of a `dl.meta`. */
export function RunDates({ createdAt, createdBy, finishedAt }: { createdAt: string; createdBy?: string | null; finishedAt: string | null }) {
  return (
    <>
      <dt>Created</dt>
      <dd>
        <time dateTime={createdAt}>{formatTime(createdAt)}</time>
        {createdBy && <span className="muted"> by {createdBy}</span>}
      </dd>
      {finishedAt && (
        <>
          <dt>Finished</dt>
          <dd>
            <time dateTime={finishedAt}>{formatTime(finishedAt)}</time>
          </dd>
        </>
      )}
    </>
  );
}
