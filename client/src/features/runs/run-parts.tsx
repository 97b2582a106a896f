import type { Run } from '../../../../shared/api/runs';
import type { RunStatus } from '../../../../shared/domain/generation';
import { engineLabel, taskCounts } from './run-progress';

export function RunStatusTag({ status }: { status: RunStatus }) {
  return (
    <span className={`status-tag run-status-${status}`} data-testid="run-status">
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
export function RunProgressBar({ run, compact = false }: { run: Run; compact?: boolean }) {
  const { done, failed, total, fraction } = taskCounts(run);
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
          <strong>{Math.round(fraction * 100)}%</strong> · {caption}
        </p>
      )}
    </div>
  );
}
