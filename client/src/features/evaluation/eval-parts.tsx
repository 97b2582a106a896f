import type { EvalRun, EvalRunStatus } from '@shared/api/evaluations';
import { BatchStep } from '../../views/batch-step';
import { RunStatusTag } from '../../views/run-parts';
import { finishedCount, isUnfinished } from './eval-format';

/** The generation runs' status tag: the statuses mean the same. */
export function EvalStatusTag({ status }: { status: EvalRunStatus }) {
  return <RunStatusTag status={status} testId="eval-status" />;
}

/**
 * "12 / 40" finished questions, with a bar while the run still moves. `caption` adds how many
 * failed (the run page).
 */
export function EvalProgress({ run, caption = false }: { run: EvalRun; caption?: boolean }) {
  const finished = finishedCount(run);
  return (
    <span className="eval-progress" data-testid="eval-progress" data-finished={finished} data-total={run.items_total}>
      {isUnfinished(run.status) && (
        <progress max={Math.max(1, run.items_total)} value={finished} aria-label={`Questions answered in evaluation run ${run.id}`} />
      )}
      <span className="small">
        {finished} / {run.items_total}
        {caption && ` answered or failed (${run.items_failed} failed)`}
      </span>
      {run.batch_progress && isUnfinished(run.status) && <BatchStep progress={run.batch_progress} testId="eval-batch-progress" />}
    </span>
  );
}
