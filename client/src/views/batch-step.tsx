import type { BatchProgress } from '@shared/api/batch-progress';

/** What a batch run's batch is doing, as the evaluation and generation run pages say it. */
const BATCH_STEP: Record<BatchProgress['state'], string> = {
  submitted: 'batch submitted',
  in_progress: 'batch in progress',
  downloading: 'batch downloading',
  done: 'batch done',
  failed: 'batch failed',
  cancelled: 'batch cancelled',
};

/** "batch in progress 3 of 10", from the run's latest batch as last polled. */
export function BatchStep({ progress, testId }: { progress: BatchProgress; testId: string }) {
  return (
    <span className="small muted" data-testid={testId} data-state={progress.state}>
      {' '}
      {BATCH_STEP[progress.state]}
      {progress.state === 'in_progress' && ` ${progress.completed + progress.failed} of ${progress.total}`}
    </span>
  );
}
