import { useState } from 'react';
import type { ExtractionJob } from '@shared/api/tables';
import { errorMessage } from '../api/http';
import { useExtractionAction, useExtractionJobs, useExtractionPlan, useStartExtraction, type ExtractionAction, type ExtractionTarget } from '../api/extraction-jobs-api';
import { CHART_TYPE_LABELS } from '@shared/domain/chart-types';
import { RunProgressBar, RunStatusTag, UsageFigures } from './run-parts';
import { isFinished } from './run-progress';

/** How a target reads in a sentence: "of split test", "of type Pie in any split", "in every split". */
function describeTarget(target: ExtractionTarget): string {
  const type = target.chart_type ? ` of type ${CHART_TYPE_LABELS[target.chart_type]}` : '';
  return target.split ? `in split ${target.split}${type}` : `${type ? `${type.trim()} ` : ''}in every split`;
}

const sameTarget = (job: ExtractionJob, target: ExtractionTarget) => job.split === (target.split ?? null) && job.chart_type === (target.chart_type ?? null);

const ACTIONS: { action: ExtractionAction; label: string; when: (job: ExtractionJob) => boolean }[] = [
  { action: 'pause', label: 'Pause', when: (job) => job.status === 'running' || job.status === 'queued' },
  { action: 'resume', label: 'Resume', when: (job) => job.status === 'paused' },
  { action: 'cancel', label: 'Cancel job', when: (job) => !isFinished(job) },
];

/** A job's progress, what its calls used, its failed charts by name, and pause/resume/cancel. */
function ExtractionProgress({ job, compact }: { job: ExtractionJob; compact: boolean }) {
  const act = useExtractionAction();
  return (
    <div className="extraction-progress" data-testid="extraction-progress" data-job={job.id} aria-live="polite">
      <p>
        Table extraction #{job.id} with {job.model} <RunStatusTag status={job.status} testId="extraction-status" />
      </p>
      <RunProgressBar run={job} kind="extraction" />
      <dl className="figures">
        <div title="Retries and repair turns included; counted as each chart finishes">
          <dt>Requests</dt>
          <dd>{job.attempts}</dd>
        </div>
        <UsageFigures run={job} />
        <div title="Of the prompt tokens, those the images took: estimated from each image's size by the model's vision encoder (each request sends its image again)">
          <dt>Image tokens (est.)</dt>
          <dd data-testid="extraction-image-tokens">
            {job.image_tokens === null ? `unknown for ${job.model}` : `~${job.image_tokens.toLocaleString('en-US')}`}
            {job.image_cost !== null && ` (~$${job.image_cost.toFixed(4)})`}
          </dd>
        </div>
      </dl>
      {!job.priced && <p className="muted small">{job.model} is not in the price table: the cost shown is 0 for its calls.</p>}
      {job.error && <p className="error">Stopped on an error: {job.error}</p>}
      {ACTIONS.filter(({ when }) => when(job)).map(({ action, label }) => (
        <button key={action} type="button" disabled={act.isPending} onClick={() => act.mutate({ id: job.id, action })}>
          {label}
        </button>
      ))}
      {act.isError && <span className="error"> {errorMessage(act.error)}</span>}
      {job.failures.length > 0 && (
        <details open={!compact}>
          <summary>
            {job.tasks_failed} {job.tasks_failed === 1 ? 'chart' : 'charts'} failed (a new job asks again)
          </summary>
          <ul data-testid="extraction-failures">
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
 * "Extract tables (N charts)" for a split or the Charts page's filter (curators): asks first,
 * naming the count and the model, then shows the job's progress live. The job runs on the
 * server, so leaving the page, or a restart, does not stop it; its panel comes back here.
 */
export function ExtractTablesControl({ target, compact = false }: { target: ExtractionTarget; compact?: boolean }) {
  const plan = useExtractionPlan(target);
  const jobs = useExtractionJobs();
  const start = useStartExtraction();
  const [confirming, setConfirming] = useState(false);
  const [startedId, setStartedId] = useState<number | null>(null);

  const job = jobs.data?.find((j) => j.id === startedId) ?? jobs.data?.find((j) => sameTarget(j, target) && !isFinished(j));
  const count = plan.data?.charts;
  const model = plan.data?.model ?? null;
  const label = count === undefined ? 'Extract tables (…)' : `Extract tables (${count} ${count === 1 ? 'chart' : 'charts'})`;
  const where = describeTarget(target);

  return (
    <div className={compact ? 'extract-tables compact' : 'extract-tables'}>
      {!confirming && (
        <button
          type="button"
          disabled={!count || model === null || start.isPending}
          title={plan.data?.unavailable ?? (count === 0 ? `No chart ${where} is waiting for a table` : undefined)}
          onClick={() => setConfirming(true)}
        >
          {label}
        </button>
      )}
      {confirming && count !== undefined && model !== null && (
        <span role="alertdialog" aria-label="Extract tables?">
          Read the tables of {count} {count === 1 ? 'chart' : 'charts'} {where} from their images with {model}? Each image is sent to the model;
          the tables are stored as extracted, not confirmed, for a curator to check.{' '}
          <button
            type="button"
            disabled={start.isPending}
            onClick={() =>
              start.mutate(target, {
                onSuccess: ({ job: started }) => {
                  setStartedId(started.id);
                  setConfirming(false);
                },
              })
            }
          >
            Extract {count} {count === 1 ? 'table' : 'tables'}
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      )}
      {start.isError && <span className="error"> {errorMessage(start.error)}</span>}
      {plan.isError && <span className="error"> Could not count the charts: {errorMessage(plan.error)}</span>}
      {job && <ExtractionProgress job={job} compact={compact} />}
    </div>
  );
}
