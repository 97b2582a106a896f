import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import { EXTRACTION_FAILURES_SHOWN, type ExtractionFailure, type ExtractionJob } from '../../shared/api/tables';
import { ChartTypeSchema, type ChartType } from '../../shared/domain/chart-types';
import { RunStatusSchema, type RunStatus } from '../../shared/domain/generation';
import { typeKnownSql, type ChartToExtract } from './table-queries';

/** All SQL of extraction jobs (migration 023): the job rows, their tasks (one per chart) and their counters. */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** A job not finished: its charts are its own, another job plans without them. */
const UNFINISHED = "('queued', 'running', 'paused')";

interface JobRow {
  id: number;
  split: string | null;
  chart_type: string | null;
  force: number;
  model: string;
  concurrency: number;
  status: string;
  tasks_total: number;
  tasks_done: number;
  tasks_failed: number;
  attempts: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  priced: number;
  image_tokens: number;
  image_cost: number;
  image_estimated: number;
  error: string | null;
  created_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** A stored job as the executor reads it (the public shape adds its failures). */
export interface ExtractionJobRecord extends Omit<ExtractionJob, 'failures' | 'chart_type' | 'force' | 'priced' | 'status' | 'image_tokens' | 'image_cost'> {
  image_tokens: number | null;
  image_cost: number | null;
  chart_type: ChartType | null;
  force: boolean;
  priced: boolean;
  status: RunStatus;
  concurrency: number;
}

const JOB_COLUMNS = `j.id, j.split, j.chart_type, j.force, j.model, j.concurrency, j.status, j.tasks_total, j.tasks_done, j.tasks_failed,
  j.attempts, j.prompt_tokens, j.completion_tokens, j.cost, j.priced, j.image_tokens, j.image_cost, j.image_estimated, j.error, u.username AS created_by, j.created_at, j.started_at, j.finished_at`;

function toRecord(row: JobRow): ExtractionJobRecord {
  const { image_estimated: estimated, ...rest } = row;
  return {
    ...rest,
    // Unknown rather than low: a call whose model has no formula added nothing to the sums.
    image_tokens: estimated === 1 ? row.image_tokens : null,
    image_cost: estimated === 1 && row.priced === 1 ? row.image_cost : null,
    chart_type: row.chart_type === null ? null : ChartTypeSchema.parse(row.chart_type),
    force: row.force === 1,
    priced: row.priced === 1,
    status: RunStatusSchema.parse(row.status),
  };
}

export function getExtractionJob(db: Db, id: number): ExtractionJobRecord | null {
  const row = statement(db, `SELECT ${JOB_COLUMNS} FROM extraction_jobs j LEFT JOIN users u ON u.id = j.created_by WHERE j.id = ?`).get(id) as JobRow | undefined;
  return row ? toRecord(row) : null;
}

export function listExtractionJobs(db: Db, limit: number): ExtractionJobRecord[] {
  const rows = statement(db, `SELECT ${JOB_COLUMNS} FROM extraction_jobs j LEFT JOIN users u ON u.id = j.created_by ORDER BY j.id DESC LIMIT ?`).all(limit) as JobRow[];
  return rows.map(toRecord);
}

/** The job's failed charts by name with the reason, in chart order: the first `limit` (the page shows EXTRACTION_FAILURES_SHOWN; the command line names them all). */
export function jobFailures(db: Db, jobId: number, limit: number = EXTRACTION_FAILURES_SHOWN): ExtractionFailure[] {
  return statement(
    db,
    `SELECT t.chart_id, c.split || '/' || c.imgname AS chart, COALESCE(t.kind, 'failed') AS kind, COALESCE(t.error, '') AS reason
     FROM extraction_tasks t JOIN charts c ON c.id = t.chart_id
     WHERE t.job_id = ? AND t.status = 'failed' ORDER BY t.chart_id LIMIT ?`,
  ).all(jobId, limit) as ExtractionFailure[];
}

/** How many of the job's charts got a table: `tasks_done` also counts those skipped for a table stored meanwhile. */
export function chartsExtracted(db: Db, jobId: number): number {
  return (statement(db, `SELECT COUNT(*) AS n FROM extraction_tasks WHERE job_id = ? AND status = 'done'`).get(jobId) as { n: number }).n;
}

export function publicExtractionJob(db: Db, job: ExtractionJobRecord): ExtractionJob {
  const { concurrency: _concurrency, ...rest } = job;
  return { ...rest, failures: job.tasks_failed > 0 ? jobFailures(db, job.id) : [] };
}

/** Of the charts a scope would read, those not already queued in another unfinished job (that job reads them). */
export function withoutQueuedCharts(db: Db, charts: ChartToExtract[]): ChartToExtract[] {
  const queued = new Set(
    (
      statement(
        db,
        `SELECT t.chart_id FROM extraction_tasks t JOIN extraction_jobs j ON j.id = t.job_id
         WHERE j.status IN ${UNFINISHED} AND t.status IN ('pending', 'running')`,
      ).all() as { chart_id: number }[]
    ).map((row) => row.chart_id),
  );
  return queued.size === 0 ? charts : charts.filter((chart) => !queued.has(chart.id));
}

export interface NewExtractionJob {
  split: string | null;
  chartType: ChartType | null;
  force: boolean;
  model: string;
  concurrency: number;
  createdBy: number | null;
  chartIds: number[];
}

/** Stores a job and its tasks (call inside a transaction: a job is never seen without its plan). */
export function insertExtractionJob(db: Db, job: NewExtractionJob): number {
  const id = Number(
    statement(db, `INSERT INTO extraction_jobs (split, chart_type, force, model, concurrency, tasks_total, created_by) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
      job.split,
      job.chartType,
      job.force ? 1 : 0,
      job.model,
      job.concurrency,
      job.chartIds.length,
      job.createdBy,
    ).lastInsertRowid,
  );
  const task = statement(db, 'INSERT INTO extraction_tasks (job_id, chart_id) VALUES (?, ?)');
  for (const chartId of job.chartIds) task.run(id, chartId);
  return id;
}

/**
 * Moves the job from one of `from` to `to` in one statement (no read-then-write race between a
 * pause and the job finishing); whether it moved. A start stamps `started_at` once, an end `finished_at`.
 */
export function transitionExtractionJob(db: Db, id: number, from: readonly RunStatus[], to: RunStatus, error: string | null = null): boolean {
  const finished = to === 'done' || to === 'cancelled' || to === 'failed';
  return (
    statement(
      db,
      `UPDATE extraction_jobs SET status = @to, error = COALESCE(@error, error),
         started_at = CASE WHEN @to = 'running' THEN COALESCE(started_at, ${NOW}) ELSE started_at END,
         finished_at = CASE WHEN @finished = 1 THEN ${NOW} ELSE finished_at END
       WHERE id = @id AND status IN (SELECT value FROM json_each(@from))`,
    ).run({ id, to, error, finished: finished ? 1 : 0, from: JSON.stringify(from) }).changes === 1
  );
}

/** Takes the job's next pending chart (lowest id first), marked running; null when none is left. */
export function claimNextTask(db: Db, jobId: number): ChartToExtract | null {
  const row = statement(
    db,
    `UPDATE extraction_tasks SET status = 'running', updated_at = ${NOW}
     WHERE job_id = @job AND chart_id = (SELECT chart_id FROM extraction_tasks WHERE job_id = @job AND status = 'pending' ORDER BY chart_id LIMIT 1)
     RETURNING chart_id`,
  ).get({ job: jobId }) as { chart_id: number } | undefined;
  if (!row) return null;
  const chart = statement(db, `SELECT id, split || '/' || imgname AS name, chart_type, ${typeKnownSql()} AS type_known FROM charts WHERE id = ?`).get(row.chart_id) as
    | { id: number; name: string; chart_type: string; type_known: number }
    | undefined;
  if (!chart) throw new Error(`extraction job ${jobId}: chart ${row.chart_id} of its plan no longer exists`);
  return { ...chart, chart_type: ChartTypeSchema.parse(chart.chart_type), type_known: chart.type_known === 1 };
}

export type TaskOutcome = { status: 'done' } | { status: 'failed' | 'skipped'; kind: string; reason: string };

export interface TaskUsage {
  attempts: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  priced: boolean;
  /** The estimated tokens of the images its requests carried (null: the model has no formula), and their cost (null: unpriced too). */
  image_tokens: number | null;
  image_cost: number | null;
}

/**
 * Settles a running task and counts it, with what its calls used; a skipped chart (a table it
 * must keep was stored meanwhile) counts as done: it has its table, and none was asked for.
 * Call inside the transaction that stores the chart's table, so a crash never leaves a stored
 * chart pending (it would be asked for again).
 */
export function finishTask(db: Db, jobId: number, chartId: number, outcome: TaskOutcome, usage: TaskUsage): void {
  const failed = outcome.status === 'failed';
  const settled = statement(
    db,
    `UPDATE extraction_tasks SET status = @status, kind = @kind, error = @reason, updated_at = ${NOW}
     WHERE job_id = @job AND chart_id = @chart AND status = 'running'`,
  ).run({ job: jobId, chart: chartId, status: outcome.status, kind: failed || outcome.status === 'skipped' ? outcome.kind : null, reason: outcome.status === 'done' ? null : outcome.reason });
  addUsage(db, jobId, usage);
  if (settled.changes === 0) return;
  statement(db, 'UPDATE extraction_jobs SET tasks_done = tasks_done + @done, tasks_failed = tasks_failed + @failed WHERE id = @job').run({
    job: jobId,
    done: failed ? 0 : 1,
    failed: failed ? 1 : 0,
  });
}

/** What calls used even when their chart is asked again later (a cancelled call, which still cost). */
export function addUsage(db: Db, jobId: number, usage: TaskUsage): void {
  statement(
    db,
    `UPDATE extraction_jobs SET attempts = attempts + @attempts, prompt_tokens = prompt_tokens + @prompt_tokens,
       completion_tokens = completion_tokens + @completion_tokens, cost = cost + @cost, priced = priced AND @priced,
       image_tokens = image_tokens + @image_tokens, image_cost = image_cost + @image_cost, image_estimated = image_estimated AND @image_estimated
     WHERE id = @job`,
  ).run({
    job: jobId,
    ...usage,
    priced: usage.priced ? 1 : 0,
    image_tokens: usage.image_tokens ?? 0,
    image_cost: usage.image_cost ?? 0,
    image_estimated: usage.image_tokens === null ? 0 : 1,
  });
}

/** A running task back to pending: its call was stopped (pause, shutdown), so it is asked when the job goes on. */
export function reopenTask(db: Db, jobId: number, chartId: number): void {
  statement(db, `UPDATE extraction_tasks SET status = 'pending', updated_at = ${NOW} WHERE job_id = ? AND chart_id = ? AND status = 'running'`).run(jobId, chartId);
}

/** Every running task of the job back to pending: its owner died mid-call; the stored charts are done already. */
export function requeueRunningTasks(db: Db, jobId: number): number {
  return statement(db, `UPDATE extraction_tasks SET status = 'pending', updated_at = ${NOW} WHERE job_id = ? AND status = 'running'`).run(jobId).changes;
}
