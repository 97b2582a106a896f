import type { ChartTypeJob, ChartTypeJobPlan, ChartTypeJobScope } from '../../shared/api/chart-types';
import type { AppContext } from '../app-context';
import { immediateTransaction } from '../../db/transactions';
import { getChartImage, getChartSummary } from '../charts/chart-queries';
import { DomainError, notFound } from '../domain-error';
import { reverifyChartItems } from '../review/chart-reverify';
import { DurableJobs, type DurableJobOptions } from '../jobs/durable-job';
import type { JobExecutor } from '../jobs/job-kind';
import {
  addUsage,
  claimNextTask,
  finishTask,
  getChartTypeJob,
  insertChartTypeJob,
  listChartTypeJobs,
  publicChartTypeJob,
  reopenTask,
  requeueRunningTasks,
  transitionChartTypeJob,
  withoutQueuedCharts,
  type ChartTypeJobRecord,
  type TaskUsage,
} from './chart-type-job-queries';
import { chartTypeState, storeVisionType, unconfirmedCharts } from './chart-type-queries';
import { chartTypeReaderFor, NoVisionModelError, type ChartTypeReader } from './vision-chart-type';
import { claimLoops } from '../jobs/bounded';

/** Charts asked at once: small calls, but endpoints rate-limit per key. */
const JOB_CONCURRENCY = 4;
/** How many jobs the list shows. */
const JOBS_LISTED = 20;

export type ReaderFactory = (job: ChartTypeJobRecord) => ChartTypeReader;

const NO_USAGE: TaskUsage = { attempts: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0, priced: true };

/**
 * "Ask the vision model" over a split's unconfirmed chart types, as a durable job (server/jobs),
 * the pattern of table extraction's jobs: its charts are stored as its tasks when it is created,
 * each chart's answer stored in the transaction that finishes its task (type_evidence `vision`,
 * the chart's items verified again), so a server killed mid-job resumes it at the next start
 * and asks only for the charts not answered yet. A chart whose call fails stays unconfirmed and
 * the task keeps why (the triage shows it); a chart a curator decided during its call keeps the
 * curator's type. Progress goes out as `chart_type_job.progressed`.
 */
export class ChartTypeJobs implements JobExecutor {
  private readonly jobs: DurableJobs;
  private readonly readerOf: ReaderFactory;

  constructor(
    private readonly ctx: AppContext,
    options: { readerOf?: ReaderFactory; durable?: DurableJobOptions } = {},
  ) {
    this.jobs = new DurableJobs(
      ctx,
      {
        table: 'chart_type_jobs',
        noun: 'chart-type job',
        progress: { event: 'chart_type_job.progressed', payload: (id) => this.progressOf(id) },
        settle: (id, to, reason) => void transitionChartTypeJob(ctx.db, id, ['running'], to, reason),
      },
      options.durable,
    );
    this.readerOf = options.readerOf ?? ((job) => chartTypeReaderFor(ctx.db, ctx.config, job.model));
  }

  get kind(): JobExecutor['kind'] {
    return this.jobs.kind;
  }

  /** What a job over `scope` would ask about now, and with which model. */
  plan(scope: ChartTypeJobScope): ChartTypeJobPlan {
    const charts = this.chartsOf(scope).length;
    try {
      return { charts, model: chartTypeReaderFor(this.ctx.db, this.ctx.config).model, unavailable: null };
    } catch (error) {
      if (!(error instanceof NoVisionModelError)) throw error;
      return { charts, model: null, unavailable: error.message };
    }
  }

  /** Stores a job over the scope's unconfirmed charts and starts it in the background. */
  launch(scope: ChartTypeJobScope, createdBy: number | null): ChartTypeJob {
    // No vision model configured: a NoVisionModelError, answered as a conflict.
    const { model } = chartTypeReaderFor(this.ctx.db, this.ctx.config);
    const id = this.ctx.db.transaction(() => {
      const charts = this.chartsOf(scope);
      const where = scope.split ? `of split ${scope.split}` : 'in any split';
      if (charts.length === 0) throw new DomainError('conflict', `no chart ${where} has an unconfirmed type to ask about (each is confirmed, has no image, or is in a job under way)`);
      const jobId = insertChartTypeJob(this.ctx.db, { split: scope.split ?? null, model, concurrency: JOB_CONCURRENCY, createdBy, chartIds: charts.map((chart) => chart.id) });
      this.ctx.events.emit('chart_type_job.created', { actor_id: createdBy, job_id: jobId, model, split: scope.split ?? null, charts: charts.length });
      return jobId;
    })();
    this.publishProgress(id, true);
    void this.start(id);
    return this.publicJob(id);
  }

  /**
   * After a split is imported: when a vision model is configured and the split has unconfirmed
   * types, a job asks about them (the issue's order: annotation, questions' words, then the vision
   * model); null when there is no model or nothing to ask. Never throws for either.
   */
  launchAfterImport(split: string, createdBy: number | null): ChartTypeJob | null {
    if (this.plan({ split }).model === null || this.chartsOf({ split }).length === 0) return null;
    return this.launch({ split }, createdBy);
  }

  list(): ChartTypeJob[] {
    return listChartTypeJobs(this.ctx.db, JOBS_LISTED).map((job) => publicChartTypeJob(this.ctx.db, job));
  }

  /** Runs (or resumes) a job to its end; returns when it stops for any reason. */
  start(id: number): Promise<void> {
    return this.jobs.start(id, {
      begin: () => transitionChartTypeJob(this.ctx.db, id, ['queued', 'running'], 'running'),
      execute: (controller) => this.execute(id, controller.signal),
    });
  }

  cancel(id: number): ChartTypeJob {
    const job = this.mustGet(id);
    if (!transitionChartTypeJob(this.ctx.db, id, ['queued', 'running', 'paused'], 'cancelled')) throw new DomainError('conflict', `chart-type job ${id} is ${job.status}; it cannot be cancelled`);
    this.jobs.abort(id);
    this.publishProgress(id, true);
    return this.publicJob(id);
  }

  /** At server start: jobs left running by a process that is gone go on; the charts answered are not asked again. */
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

  private chartsOf(scope: ChartTypeJobScope): { id: number; name: string }[] {
    return withoutQueuedCharts(this.ctx.db, unconfirmedCharts(this.ctx.db, scope.split));
  }

  private async execute(id: number, signal: AbortSignal): Promise<void> {
    const job = this.mustGet(id);
    const reader = this.readerOf(job);
    this.publishProgress(id, true);
    const work = async () => {
      while (!signal.aborted) {
        const chart = claimNextTask(this.ctx.db, id);
        if (!chart) return;
        await this.readOne(job, reader, chart, signal);
        this.publishProgress(id, false);
      }
    };
    await claimLoops(job.concurrency, work);
    if (signal.aborted) return;
    transitionChartTypeJob(this.ctx.db, id, ['running'], 'done');
  }

  /** One chart: asked, and its answer stored with its task settled in one transaction (unless a curator decided it meanwhile). */
  private async readOne(job: ChartTypeJobRecord, reader: ChartTypeReader, chart: { id: number; name: string }, signal: AbortSignal): Promise<void> {
    const { db } = this.ctx;
    const image = getChartImage(db, chart.id);
    if (!image) {
      db.transaction(() => finishTask(db, job.id, chart.id, { status: 'failed', kind: 'no_image', reason: 'no stored image to look at' }, NO_USAGE))();
      return;
    }
    const result = await reader.read({ id: chart.id, image: image.png }, signal);
    const usage: TaskUsage = { attempts: result.attempts, ...result.usage };
    if (!result.ok && result.kind === 'cancelled') {
      // Stopped mid-call (cancel, shutdown): what it used is counted, the chart is asked when the job goes on.
      db.transaction(() => {
        addUsage(db, job.id, usage);
        reopenTask(db, job.id, chart.id);
      })();
      return;
    }
    // Immediate: the chart's `chart.updated` tells clients once its type is committed.
    immediateTransaction(db, (): void => {
      if (!result.ok) {
        finishTask(db, job.id, chart.id, { status: 'failed', kind: result.kind, reason: result.reason }, usage);
        return;
      }
      const before = chartTypeState(db, chart.id);
      if (!before || !storeVisionType(db, chart.id, result.value.chartType)) {
        const reason = before ? `its ${before.type_source} type (${before.chart_type}), decided meanwhile, is kept` : 'the chart no longer exists';
        finishTask(db, job.id, chart.id, { status: 'skipped', kind: 'kept', reason }, usage);
        return;
      }
      finishTask(db, job.id, chart.id, { status: 'done', chartType: result.value.chartType, hint: result.value.hint }, usage);
      if (before.has_table && before.chart_type !== result.value.chartType) reverifyChartItems(db, chart.id);
      const summary = getChartSummary(db, chart.id);
      if (summary) this.ctx.events.emit('chart.updated', { chart: summary });
    });
  }

  private mustGet(id: number): ChartTypeJobRecord {
    const job = getChartTypeJob(this.ctx.db, id);
    if (!job) throw notFound(`chart-type job ${id}`);
    return job;
  }

  private publicJob(id: number): ChartTypeJob {
    return publicChartTypeJob(this.ctx.db, this.mustGet(id));
  }

  private progressOf(id: number): { job: ChartTypeJob } | null {
    const job = getChartTypeJob(this.ctx.db, id);
    return job ? { job: publicChartTypeJob(this.ctx.db, job) } : null;
  }

  private publishProgress(id: number, force: boolean): void {
    this.jobs.progressed(id, force);
  }
}
