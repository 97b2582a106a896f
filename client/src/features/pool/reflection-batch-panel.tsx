import { useState } from 'react';
import { Link } from 'react-router';
import type { ReflectionBatch } from '@shared/api/reflection';
import { CHART_TYPE_LABELS, type ChartType } from '@shared/domain/chart-types';
import { errorMessage } from '../../api/http';
import { useLatestReflectionBatch, useReflectionBatch, useStartReflectionBatch } from './reflection-api';

/** What a batch's reflections came to, each counted once: revised, duplicates of the pool, failed. */
function batchOutcomes({ done, revised, failed }: Pick<ReflectionBatch, 'done' | 'revised' | 'failed'>): string {
  const duplicates = done - revised - failed;
  return [`${revised} revised`, ...(duplicates > 0 ? [`${duplicates} duplicate${duplicates === 1 ? '' : 's'} of the pool`] : []), `${failed} failed`].join(' · ');
}

/** Reflected proposals over the batch's total: revised or not in one colour, failed in another. */
function BatchProgress({ batch }: { batch: ReflectionBatch }) {
  const { total, done, revised, failed } = batch;
  const pct = (n: number) => (total > 0 ? `${(100 * n) / total}%` : '0%');
  const caption = `${done} of ${total} reflected · ${batchOutcomes(batch)}`;
  return (
    <div className="run-progress">
      <div
        className="progress-track"
        role="progressbar"
        aria-label={`Reflection batch ${batch.id}`}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={caption}
        data-testid="reflection-batch-progress"
        data-done={done}
        data-total={total}
        data-revised={revised}
        data-failed={failed}
      >
        <span className="progress-done" style={{ width: pct(done - failed) }} />
        <span className="progress-failed" style={{ width: pct(failed) }} />
      </div>
      <p className="progress-caption" data-testid="reflection-batch-caption">
        {caption}
      </p>
    </div>
  );
}

function BatchErrors({ errors }: { errors: ReflectionBatch['errors'] }) {
  if (errors.length === 0) return null;
  return (
    <ul className="small error-text" data-testid="reflection-batch-errors">
      {errors.map(({ proposal_id, error }) => (
        <li key={proposal_id}>
          <Link to={`/pool/${proposal_id}`}>#{proposal_id}</Link>: {error}
        </li>
      ))}
    </ul>
  );
}

/**
 * A curator's "reflect on all with new feedback" (of the filtered chart type, if any) and the
 * live progress of the batch it started. Revisions reach the list by their own pushes.
 */
export function ReflectionBatchPanel({ chartType }: { chartType: ChartType | '' }) {
  const start = useStartReflectionBatch();
  const [startedId, setStartedId] = useState<number | null>(null);
  // The batch started here, else the newest one (perhaps started before this page was opened).
  const latest = useLatestReflectionBatch();
  const batch = useReflectionBatch(startedId ?? latest?.id ?? null);
  const running = start.isPending || batch?.status === 'running';
  const scope = chartType ? ` (${CHART_TYPE_LABELS[chartType]})` : '';

  return (
    <div className="panel" data-testid="reflection-batch">
      <h2>Reflection</h2>
      <p className="muted small">Revise every active proposal whose items were decided since it was last reflected on.</p>
      <button
        type="button"
        disabled={running}
        onClick={() => start.mutate(chartType || undefined, { onSuccess: ({ batch: started }) => setStartedId(started.id) })}
      >
        Reflect on all with new feedback{scope}
      </button>
      {start.isError && (
        <p className="error" role="alert">
          Could not start the batch: {errorMessage(start.error)}
        </p>
      )}
      {batch && (
        <div role="status" data-testid="reflection-batch-status" data-status={batch.status}>
          {batch.total === 0 ? (
            <p className="muted">No proposal has new feedback{scope}.</p>
          ) : (
            <BatchProgress batch={batch} />
          )}
          {batch.status === 'done' && batch.total > 0 && (
            <p data-testid="reflection-batch-done" className={batch.failed === batch.total ? 'error-text' : undefined}>
              {batch.failed === batch.total ? `Done, with no revision: all ${batch.total} failed (reasons below).` : `Done: ${batchOutcomes(batch)}.`}
            </p>
          )}
          <BatchErrors errors={batch.errors} />
        </div>
      )}
    </div>
  );
}
