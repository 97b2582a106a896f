import type { ExtractionFailure, ExtractionJob } from '../../shared/api/tables';
import type { AppContext } from '../app-context';
import type { TableExtractor } from './extract-table';
import { chartsExtracted, jobFailures } from './extraction-job-queries';
import { ExtractionJobs } from './extraction-jobs';
import type { ExtractionScope } from './table-queries';

/**
 * `hqa extract-tables` as the server's extraction job kind, run in this process: the charts in
 * scope without a table (with `force`, unconfirmed extractions too) become a durable job whose
 * each table is stored in the transaction that settles its chart, so an interrupted run loses
 * nothing; a process killed outright leaves its job to the next server start, which takes it up.
 * Retries of a request are the transport's (`max_retries`, `retry-after` honoured).
 */

export interface ExtractionReport {
  /** The extraction job that ran, as the Charts page lists it; null when no chart was waiting. */
  job_id: number | null;
  model: string;
  /** Charts asked for in this run. */
  charts: number;
  extracted: number;
  failed: ExtractionFailure[];
  /** In scope but left alone: a table to keep (imported, a curator's, confirmed, or extracted already without --force). */
  skipped_with_table: number;
  /** In scope without a table and without an image to read one from. */
  skipped_without_image: number;
  /** Requests made, retries and repair turns included. */
  attempts: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  /** False when the model is not in the price table: `cost` is then 0, not "free". */
  priced: boolean;
  /**
   * Of the prompt tokens, those the images took by the model family's formula (server/llm/image-tokens.ts),
   * each image counted once per request; null when the model's family is unknown.
   */
  image_tokens: number | null;
  /** Their cost at the model's input price; null when unpriced or not estimated. */
  image_cost: number | null;
  /** Stopped before its end (interrupted, or paused for a full disk): run again to continue. */
  cancelled: boolean;
}

export interface ExtractionRunOptions {
  /** The extraction model; by default the settings' (a ChartTableError when none is configured). */
  extractor?: TableExtractor;
  concurrency?: number;
  /** Told as the job's progress goes out (throttled as the server's), and once at its end. */
  onProgress?: (done: number, total: number) => void;
  /** Aborting cancels the job: calls in flight stop, their charts wait for the next run. */
  signal?: AbortSignal;
}

export async function runExtractionJob(ctx: AppContext, scope: ExtractionScope, options: ExtractionRunOptions = {}): Promise<ExtractionReport> {
  const progressed = (job: ExtractionJob) => options.onProgress?.(job.tasks_done + job.tasks_failed, job.tasks_total);
  const jobs = new ExtractionJobs(
    {
      ...ctx,
      publish: (event, payload, sealed) => {
        if (event === 'extraction.progressed') progressed((payload as { job: ExtractionJob }).job);
        ctx.publish(event, payload, sealed);
      },
    },
    { extractor: options.extractor },
  );
  const pageScope = { split: scope.split, chart_type: scope.chartType, force: scope.force === true };
  const plan = jobs.plan(pageScope, scope.chartId);
  const report = (job: ExtractionJob | null): ExtractionReport => ({
    job_id: job?.id ?? null,
    model: job?.model ?? plan.model ?? '',
    charts: job?.tasks_total ?? 0,
    extracted: job ? chartsExtracted(ctx.db, job.id) : 0,
    failed: job && job.tasks_failed > 0 ? jobFailures(ctx.db, job.id, job.tasks_failed) : [],
    skipped_with_table: plan.skipped_with_table,
    skipped_without_image: plan.skipped_without_image,
    attempts: job?.attempts ?? 0,
    prompt_tokens: job?.prompt_tokens ?? 0,
    completion_tokens: job?.completion_tokens ?? 0,
    cost: job?.cost ?? 0,
    priced: job?.priced ?? true,
    image_tokens: job ? job.image_tokens : 0,
    image_cost: job ? job.image_cost : 0,
    cancelled: job !== null && job.status !== 'done',
  });
  if (plan.charts === 0) {
    options.onProgress?.(0, 0);
    return report(null);
  }
  if (options.signal?.aborted) return { ...report(null), cancelled: true };
  const launched = jobs.launch(pageScope, null, { chartId: scope.chartId, concurrency: options.concurrency });
  const cancel = () => {
    try {
      jobs.cancel(launched.id);
    } catch {
      // It ended meanwhile: nothing to cancel.
    }
  };
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    await jobs.start(launched.id);
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }
  return report(jobs.get(launched.id));
}
