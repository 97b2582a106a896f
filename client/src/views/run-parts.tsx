import type { Run } from '@shared/api/runs';
import type { RunStatus } from '@shared/domain/generation';
import { percentHalfUp } from '@shared/eval/decimal-round';
import { formatTime } from '../ui/format';
import { engineLabel, formatCost, taskCounts } from './run-progress';

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
 * Finished tasks as a bar: done in one colour, failed in another, out of the planned total.
 * `compact` drops the caption (list rows).
 */
export function RunProgressBar({ run, compact = false }: { run: Pick<Run, 'id' | 'tasks_total' | 'tasks_done' | 'tasks_failed'>; compact?: boolean }) {
  const { done, failed, total } = taskCounts(run);
  const pct = (n: number) => (total > 0 ? `${(100 * n) / total}%` : '0%');
  const caption = `${done} done · ${failed} failed · ${total} total`;
  return (
    <div className={compact ? 'run-progress compact' : 'run-progress'}>
      <div
        className="progress-track"
        role="progressbar"
        aria-label={`Tasks of run ${run.id}`}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done + failed}
        aria-valuetext={caption}
        data-testid="run-progress"
        data-done={done}
        data-failed={failed}
        data-total={total}
        title={caption}
      >
        <span className="progress-done" style={{ width: pct(done) }} />
        <span className="progress-failed" style={{ width: pct(failed) }} />
      </div>
      {!compact && (
        <p className="progress-caption" data-testid="run-progress-caption">
          <strong>{percentHalfUp(Math.min(done + failed, total), total, 0) ?? 0}%</strong> · {caption}
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
