import { useState } from 'react';
import type { ChartTypeJob } from '@shared/api/chart-types';
import { errorMessage } from '../../api/http';
import { RunProgressBar, RunStatusTag, UsageFigures } from '../../views/run-parts';
import { isFinished } from '../../views/run-progress';
import { useCancelVisionJob, useStartVisionJob, useVisionJobs, useVisionPlan } from './chart-types-api';

/** A vision job's progress, what its calls cost, the charts it could not read (they stay unconfirmed), and cancel. */
function VisionJobProgress({ job }: { job: ChartTypeJob }) {
  const cancel = useCancelVisionJob();
  return (
    <div className="extraction-progress" data-testid="vision-job" data-job={job.id} aria-live="polite">
      <p>
        Vision job #{job.id} with {job.model} <RunStatusTag status={job.status} testId="vision-job-status" />
      </p>
      <RunProgressBar run={job} kind="chart-type-job" />
      <dl className="figures">
        <div title="Retries and repair turns included">
          <dt>Requests</dt>
          <dd>{job.attempts}</dd>
        </div>
        <UsageFigures run={job} />
      </dl>
      {!job.priced && <p className="muted small">{job.model} is not in the price table: the cost shown is 0 for its calls.</p>}
      {job.error && <p className="error">Stopped on an error: {job.error}</p>}
      {!isFinished(job) && (
        <button type="button" disabled={cancel.isPending} onClick={() => cancel.mutate(job.id)}>
          Cancel job
        </button>
      )}
      {cancel.isError && <span className="error"> {errorMessage(cancel.error)}</span>}
      {job.failures.length > 0 && (
        <details>
          <summary>
            {job.tasks_failed} {job.tasks_failed === 1 ? 'chart' : 'charts'} not read (still unconfirmed)
          </summary>
          <ul>
            {job.failures.map((failure) => (
              <li key={failure.chart_id}>
                <span className="mono">{failure.chart}</span>: {failure.kind}: {failure.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/**
 * "Ask the vision model (N charts)": one small call per unconfirmed chart of the split, asked
 * first with the count and the model; the job runs on the server, its progress shown live here.
 */
export function VisionJobControl({ split }: { split: string }) {
  const plan = useVisionPlan(split);
  const jobs = useVisionJobs();
  const start = useStartVisionJob();
  const [confirming, setConfirming] = useState(false);
  const [startedId, setStartedId] = useState<number | null>(null);
  const job = jobs.data?.find((j) => j.id === startedId) ?? jobs.data?.find((j) => j.split === (split || null) && !isFinished(j));
  const count = plan.data?.charts;
  const model = plan.data?.model ?? null;
  const where = split ? `of split ${split}` : 'in every split';

  return (
    <div className="extract-tables compact">
      {!confirming && (
        <button type="button" disabled={!count || model === null || start.isPending} title={plan.data?.unavailable ?? undefined} onClick={() => setConfirming(true)}>
          {count === undefined ? 'Ask the vision model (…)' : `Ask the vision model (${count} ${count === 1 ? 'chart' : 'charts'})`}
        </button>
      )}
      {plan.data?.unavailable && <span className="muted small"> {plan.data.unavailable}</span>}
      {confirming && count !== undefined && model !== null && (
        <span role="alertdialog" aria-label="Ask the vision model?">
          Ask {model} for the types of {count} unconfirmed {count === 1 ? 'chart' : 'charts'} {where}? One small call per chart (its image at low
          detail); each answer confirms the chart’s type, a chart it cannot read stays here.{' '}
          <button
            type="button"
            disabled={start.isPending}
            onClick={() =>
              start.mutate(split, {
                onSuccess: ({ job: started }) => {
                  setStartedId(started.id);
                  setConfirming(false);
                },
              })
            }
          >
            Ask about {count} {count === 1 ? 'chart' : 'charts'}
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      )}
      {start.isError && <span className="error"> {errorMessage(start.error)}</span>}
      {job && <VisionJobProgress job={job} />}
    </div>
  );
}
