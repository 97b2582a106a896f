import type { ExtractionJob, ExtractionPlan, ExtractionScope } from '../../shared/api/tables';
import type { AppContext } from '../app-context';
import { immediateTransaction } from '../../db/transactions';
import { getChartImage, getChartSummary } from '../charts/chart-queries';
import { DomainError, notFound } from '../domain-error';
import { DurableJobs, type DurableJobOptions } from '../jobs/durable-job';
import type { JobExecutor } from '../jobs/job-kind';
import type { TableExtractor } from './extract-table';
import {
  addUsage,
  claimNextTask,
  finishTask,
  getExtractionJob,
  insertExtractionJob,
  listExtractionJobs,
  publicExtractionJob,
  reopenTask,
  requeueRunningTasks,
  transitionExtractionJob,
  withoutQueuedCharts,
  type ExtractionJobRecord,
  type TaskUsage,
} from './extraction-job-queries';
import { chartsSkipped, chartsToExtract, getChartTable, type ChartToExtract, type ExtractionScope as ChartScope } from './table-queries';
import { ChartTableError, extractorFor, replaceable, storeExtractedTable } from './table-service';
import { claimLoops } from '../jobs/bounded';

/** Charts read at once: a vision call takes seconds, and endpoints rate-limit per key. */
const JOB_CONCURRENCY = 4;
/** How often a busy job tells clients its progress. */
/** How many jobs the list shows. */
const JOBS_LISTED = 20;

const NO_USAGE: TaskUsage = { attempts: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0, priced: true, image_tokens: 0, image_cost: 0 };

/**
 * "Extract tables" over a split or the Charts page's filter, as a durable job (server/jobs):
 * its charts are stored as its tasks when it is created, each chart's table stored in the
 * transaction that finishes its task, so a server killed mid-job resumes it at the next start
 * and asks only for the charts not stored yet. Retries of a request are the transport's; a chart
 * that fails is listed by name with its reason and asked again by the next job. Progress goes
 * out as `extraction.progressed`; pause, resume and cancel reach every call in flight.
 */
export class ExtractionJobs implements JobExecutor {
  private readonly jobs: DurableJobs;
  private readonly extractorOf: (job: ExtractionJobRecord) => TableExtractor;
  private readonly model: () => string;

  /** `extractor`: the one every job uses (the command line's, a test's); by default the settings' model, each job its own. */
  constructor(
    private readonly ctx: AppContext,
    options: { extractor?: TableExtractor; durable?: DurableJobOptions } = {},
  ) {
    this.jobs = new DurableJobs(
      ctx,
      {
        table: 'extraction_jobs',
        noun: 'extraction job',
        progress: { event: 'extraction.progressed', payload: (id) => this.progressOf(id) },
        settle: (id, to, reason) => void transitionExtractionJob(ctx.db, id, ['running'], to, reason),
      },
      options.durable,
    );
    const fixed = options.extractor;
    this.extractorOf = fixed ? () => fixed : (job) => extractorFor(ctx.db, ctx.config, job.model);
    // No vision model configured: a ChartTableError, answered as a conflict.
    this.model = fixed ? () => fixed.model : () => extractorFor(ctx.db, ctx.config).model;
  }

  get kind(): JobExecutor['kind'] {
    return this.jobs.kind;
  }

  /** What a job over `scope` would read now, and with which model: the button's count and the confirmation's words. */
  plan(scope: ExtractionScope, chartId?: number): ExtractionPlan {
    const charts = this.chartsOf(scope, chartId);
    const counts = chartsSkipped(this.ctx.db, this.queryScope(scope, chartId));
    const skipped = { skipped_with_table: counts.with_table, skipped_without_image: counts.without_image };
    try {
      return { charts: charts.length, model: this.model(), unavailable: null, ...skipped };
    } catch (error) {
      if (!(error instanceof ChartTableError)) throw error;
      return { charts: charts.length, model: null, unavailable: error.message, ...skipped };
    }
  }

  /**
   * Stores a job over the scope's charts without a table and starts it in the background. The
   * command line narrows it to one chart (`chartId`) and sets how many it reads at once.
   */
  launch(scope: ExtractionScope, createdBy: number | null, options: { chartId?: number; concurrency?: number } = {}): ExtractionJob {
    const model = this.model();
    const id = this.ctx.db.transaction(() => {
      const charts = this.chartsOf(scope, options.chartId);
      if (charts.length === 0) throw new DomainError('conflict', `no chart ${describeScope(scope)} is waiting for a table (each has one, has no stored image, or is in a job under way)`);
      const jobId = insertExtractionJob(this.ctx.db, {
        split: scope.split ?? null,
        chartType: scope.chart_type ?? null,
        force: scope.force,
        model,
        concurrency: options.concurrency ?? JOB_CONCURRENCY,
        createdBy,
        chartIds: charts.map((chart) => chart.id),
      });
      this.ctx.events.emit('extraction_job.created', { actor_id: createdBy, job_id: jobId, model, split: scope.split ?? null, chart_type: scope.chart_type ?? null, force: scope.force, charts: charts.length });
      return jobId;
    })();
    this.publishProgress(id, true);
    void this.start(id);
    return this.publicJob(id);
  }

  /** Job `id` as clients see it (not found: a DomainError). */
  get(id: number): ExtractionJob {
    return this.publicJob(id);
  }

  list(): ExtractionJob[] {
    return listExtractionJobs(this.ctx.db, JOBS_LISTED).map((job) => publicExtractionJob(this.ctx.db, job));
  }

  /** Runs (or resumes) a job to its end; returns when it stops for any reason. */
  start(id: number): Promise<void> {
    return this.jobs.start(id, {
      begin: () => transitionExtractionJob(this.ctx.db, id, ['queued', 'running'], 'running'),
      execute: (controller) => this.execute(id, controller.signal),
    });
  }

  pause(id: number): ExtractionJob {
    this.move(id, ['queued', 'running'], 'paused', 'paused');
    this.jobs.abort(id);
    return this.publicJob(id);
  }

  resume(id: number): ExtractionJob {
    if (this.mustGet(id).status === 'paused') this.jobs.readyToResume(id);
    this.move(id, ['paused'], 'running', 'resumed');
    // Paused a moment ago, its calls may still be winding down here: it starts again once they have.
    const windingDown = this.jobs.running(id);
    void (windingDown ? windingDown.then(() => this.start(id)) : this.start(id));
    return this.publicJob(id);
  }

  cancel(id: number): ExtractionJob {
    this.move(id, ['queued', 'running', 'paused'], 'cancelled', 'cancelled');
    this.jobs.abort(id);
    return this.publicJob(id);
  }

  /** At server start: jobs left running by a process that is gone go on; the charts it stored are not asked for again. */
  resumeOrphans(): number[] {
    return this.jobs.takeOrphans((id) => {
      requeueRunningTasks(this.ctx.db, id);
      void this.start(id);
    });
  }

  /** Server shutdown: calls in flight stop, their charts go back to pending, and jobs resume at the next start. */
  shutdown(): Promise<void> {
    return this.jobs.shutdown();
  }

  private move(id: number, from: Parameters<typeof transitionExtractionJob>[2], to: Parameters<typeof transitionExtractionJob>[3], verb: string): void {
    const job = this.mustGet(id);
    if (!transitionExtractionJob(this.ctx.db, id, from, to)) throw new DomainError('conflict', `extraction job ${id} is ${job.status}; it cannot be ${verb}`);
    this.publishProgress(id, true);
  }

  private queryScope(scope: ExtractionScope, chartId?: number): ChartScope {
    return { split: scope.split, chartType: scope.chart_type, chartId, force: scope.force };
  }

  private chartsOf(scope: ExtractionScope, chartId?: number): ChartToExtract[] {
    return withoutQueuedCharts(this.ctx.db, chartsToExtract(this.ctx.db, this.queryScope(scope, chartId)));
  }

  private async execute(id: number, signal: AbortSignal): Promise<void> {
    const job = this.mustGet(id);
    const extractor = this.extractorOf(job);
    this.publishProgress(id, true);
    const work = async () => {
      while (!signal.aborted) {
        const chart = claimNextTask(this.ctx.db, id);
        if (!chart) return;
        await this.extractOne(job, extractor, chart, signal);
        this.publishProgress(id, false);
      }
    };
    await claimLoops(job.concurrency, work);
    if (signal.aborted) return;
    transitionExtractionJob(this.ctx.db, id, ['running'], 'done');
  }

  /** One chart: skipped if a table it must keep arrived meanwhile, else read and stored with its task settled in one transaction. */
  private async extractOne(job: ExtractionJobRecord, extractor: TableExtractor, chart: ChartToExtract, signal: AbortSignal): Promise<void> {
    const { db } = this.ctx;
    const current = getChartTable(db, chart.id);
    const kept = current !== null && (job.force ? !replaceable(current) : current.data_table !== null);
    if (!current || kept) {
      const reason = current ? `its ${current.table_confirmed ? 'confirmed' : (current.table_source ?? '')} table, stored meanwhile, is kept` : 'the chart no longer exists';
      db.transaction(() => finishTask(db, job.id, chart.id, { status: 'skipped', kind: 'kept', reason }, NO_USAGE))();
      return;
    }
    const image = getChartImage(db, chart.id);
    if (!image) {
      db.transaction(() => finishTask(db, job.id, chart.id, { status: 'failed', kind: 'no_image', reason: 'no stored image to read a table from' }, NO_USAGE))();
      return;
    }
    const result = await extractor.extract({ id: chart.id, chart_type: chart.chart_type, type_known: chart.type_known, image: image.png }, signal);
    const usage: TaskUsage = {
      attempts: result.attempts,
      ...result.usage,
      // Every request, retries and the repair turn included, carries the image again.
      image_tokens: result.image.tokens === null ? null : result.image.tokens * result.attempts,
      image_cost: result.image.cost === null ? null : result.image.cost * result.attempts,
    };
    if (!result.ok && result.kind === 'cancelled') {
      // Stopped mid-call (pause, cancel, shutdown): what it used is counted, the chart is asked when the job goes on.
      db.transaction(() => {
        addUsage(db, job.id, usage);
        reopenTask(db, job.id, chart.id);
      })();
      return;
    }
    // Immediate: the chart's `chart.updated` tells clients once its table is committed.
    immediateTransaction(db, () => {
      if (!result.ok) {
        finishTask(db, job.id, chart.id, { status: 'failed', kind: result.kind, reason: result.reason }, usage);
        return;
      }
      try {
        storeExtractedTable(db, chart.id, result.value);
        finishTask(db, job.id, chart.id, { status: 'done' }, usage);
        const summary = getChartSummary(db, chart.id);
        if (summary) this.ctx.events.emit('chart.updated', { chart: summary });
      } catch (error) {
        // A curator's or confirmed table stored during the call is kept: this chart is named, the job goes on.
        if (!(error instanceof ChartTableError)) throw error;
        finishTask(db, job.id, chart.id, { status: 'failed', kind: error.reason, reason: error.message }, usage);
      }
    });
  }

  private mustGet(id: number): ExtractionJobRecord {
    const job = getExtractionJob(this.ctx.db, id);
    if (!job) throw notFound(`extraction job ${id}`);
    return job;
  }

  private publicJob(id: number): ExtractionJob {
    return publicExtractionJob(this.ctx.db, this.mustGet(id));
  }

  private progressOf(id: number): { job: ExtractionJob } | null {
    const job = getExtractionJob(this.ctx.db, id);
    return job ? { job: publicExtractionJob(this.ctx.db, job) } : null;
  }

  private publishProgress(id: number, force: boolean): void {
    this.jobs.progressed(id, force);
  }
}

function describeScope(scope: ExtractionScope): string {
  const parts = [scope.split ? `of split ${scope.split}` : 'in any split', scope.chart_type ? `of type ${scope.chart_type}` : null].filter(Boolean);
  return parts.join(' ');
}
