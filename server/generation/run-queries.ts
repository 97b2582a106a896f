import { preparedOnce, type Db } from '../../db/database';
import { parseJsonColumn, parseNullableJsonColumn } from '../../db/json-column';
import { statement } from '../../db/statements';
import { BatchProgressSchema } from '../../shared/api/batch-progress';
import { RunConfigSchema, type Run, type RunConfig, type RunDecline, type RunError } from '../../shared/api/runs';
import { PairingSchema, type Pairing } from '../../shared/generation/pairing';
import type { ChartType } from '../../shared/domain/chart-types';
import { typeUnconfirmedSql } from '../charts/type-state-queries';
import type { JobOwner } from '../jobs/job-owner';
import type { Owner } from '../jobs/job-queries';
import { EngineSchema, RunStageSchema, RunStatusSchema, type Engine, type RunStatus } from '../../shared/domain/generation';

/** All SQL of generation runs and their tasks. */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

interface RunRow extends Omit<Run, 'config' | 'engine' | 'stage' | 'status' | 'batch_progress'> {
  config: string;
  /** JSON of the latest batch, for batch runs only. */
  batch_progress: string | null;
  engine: string;
  stage: string;
  status: string;
  items_planned: number;
  owner_pid: number | null;
  owner_host: string | null;
  heartbeat_at: string | null;
}

const RUN_COLUMNS = `id, engine, model, stage, config, status, pool_round, tasks_total, tasks_done, tasks_failed, proposals_created,
  items_created, items_failed, items_declined, llm_calls, prompt_tokens, completion_tokens, cached_tokens, cost, stop_reason, created_at, started_at, finished_at,
  items_planned, owner_pid, owner_host, heartbeat_at,
  CASE WHEN batch = 1 THEN (SELECT json_object('state', b.state, 'total', b.requests_total, 'completed', b.requests_completed, 'failed', b.requests_failed)
    FROM llm_batches b WHERE b.run_id = runs.id ORDER BY b.id DESC LIMIT 1) END AS batch_progress`;

export interface RunRecord extends Run {
  items_planned: boolean;
  owner_pid: number | null;
  owner_host: string | null;
  heartbeat_at: string | null;
}


const TASK_COLUMNS = 'id, run_id, kind, chart_type, qa_id, proposal_id, idempotency_key, attempts, owner_pid, owner_host, pairing';

/** A running task's holder, in the shape a job owner is judged in (`claimed_at` as its heartbeat). */
interface TaskHolder extends JobOwner {
  id: number;
}

/** The statements every task runs, prepared once per connection: a run executes them thousands of times. */
function prepare(db: Db) {
  return {
    getRun: db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`),
    insertTask: db.prepare('INSERT OR IGNORE INTO run_tasks (run_id, kind, chart_type, qa_id, proposal_id, idempotency_key) VALUES (?, ?, ?, ?, ?, ?)'),
    countTask: db.prepare('UPDATE runs SET tasks_total = tasks_total + 1 WHERE id = ?'),
    // Pending, or held by an owner that stopped proving itself alive (a host cut off or dead): one statement, so no two workers get the same.
    claimTask: db.prepare<[{ runId: number; kind: string; pid: number; host: string; staleBefore: string }], StoredTaskRow>(
      `UPDATE run_tasks SET status = 'running', attempts = attempts + 1, owner_pid = @pid, owner_host = @host, claimed_at = ${NOW}, updated_at = ${NOW}
       WHERE id = (SELECT id FROM run_tasks WHERE run_id = @runId AND kind = @kind
         AND (status = 'pending' OR (status = 'running' AND (claimed_at IS NULL OR claimed_at < @staleBefore))) ORDER BY id LIMIT 1)
       RETURNING ${TASK_COLUMNS}`,
    ),
    // Only the task's holder as claimed (a batch task is never claimed: NULL) stores its end: a result made after the task was taken over is dropped.
    finishTask: db.prepare<[{ id: number; status: string; error: string | null; decline: string | null; pid: number | null; host: string | null }]>(
      `UPDATE run_tasks SET status = @status, error = @error, decline_reason = @decline, updated_at = ${NOW}
       WHERE id = @id AND status IN ('pending', 'running') AND owner_pid IS @pid AND owner_host IS @host`,
    ),
    refreshClaims: db.prepare<[{ runId: number; pid: number; host: string }]>(
      `UPDATE run_tasks SET claimed_at = ${NOW} WHERE run_id = @runId AND status = 'running' AND owner_pid = @pid AND owner_host = @host`,
    ),
    releaseTasks: db.prepare<[{ runId: number; pid: number; host: string }]>(
      `UPDATE run_tasks SET status = 'pending', owner_pid = NULL, owner_host = NULL, claimed_at = NULL, updated_at = ${NOW}
       WHERE run_id = @runId AND status = 'running' AND owner_pid = @pid AND owner_host = @host`,
    ),
    runningTasks: db.prepare<[number], TaskHolder>(
      "SELECT id, owner_pid, owner_host, claimed_at AS heartbeat_at FROM run_tasks WHERE run_id = ? AND status = 'running' ORDER BY id",
    ),
    // Compare-and-set on the holder as read, as a job's claim: of two processes judging it gone, one requeues it.
    requeueTask: db.prepare<[{ id: number; wasPid: number | null; wasHost: string | null; wasClaimed: string | null }]>(
      `UPDATE run_tasks SET status = 'pending', owner_pid = NULL, owner_host = NULL, claimed_at = NULL, updated_at = ${NOW}
       WHERE id = @id AND status = 'running' AND owner_pid IS @wasPid AND owner_host IS @wasHost AND claimed_at IS @wasClaimed`,
    ),
    heldElsewhere: db.prepare<[{ runId: number; kind: string; pid: number; host: string }], { n: number }>(
      `SELECT COUNT(*) AS n FROM run_tasks WHERE run_id = @runId AND kind = @kind AND status = 'running'
       AND NOT (owner_pid IS @pid AND owner_host IS @host)`,
    ),
    countFinished: db.prepare(
      `UPDATE runs SET tasks_done = tasks_done + ?, tasks_failed = tasks_failed + ?, proposals_created = proposals_created + ?,
        items_created = items_created + ?, items_failed = items_failed + ?, items_declined = items_declined + ? WHERE id = ?`,
    ),
    addUsage: db.prepare(
      `UPDATE runs SET llm_calls = llm_calls + ?, prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ?,
        cached_tokens = cached_tokens + ?, cost = cost + ? WHERE id = ?`,
    ),
    proposalItems: db.prepare('SELECT COUNT(*) AS n FROM hqa_items WHERE proposal_id = ?'),
  };
}

const statements = preparedOnce(prepare);

function toRun(row: RunRow): RunRecord {
  return {
    ...row,
    engine: EngineSchema.parse(row.engine),
    stage: RunStageSchema.parse(row.stage),
    status: RunStatusSchema.parse(row.status),
    config: parseJsonColumn(RunConfigSchema, row.config, { table: 'runs', column: 'config', id: row.id }),
    items_planned: row.items_planned === 1,
    batch_progress: row.batch_progress === null ? null : parseJsonColumn(BatchProgressSchema, row.batch_progress, { table: 'runs', column: 'batch_progress (latest llm_batches row)', id: row.id }),
  };
}

/**
 * The public shape of a run (what crosses the wire). Its plan is complete once Stage 2's tasks
 * are planned, or, for a Stage 1 run, once its tasks are.
 */
export function publicRun(run: RunRecord): Run {
  const { items_planned: itemsPlanned, owner_pid: _pid, owner_host: _host, heartbeat_at: _hb, ...rest } = run;
  return { ...rest, plan_complete: run.stage === 'proposals' ? run.tasks_total > 0 : itemsPlanned };
}

export function insertRun(db: Db, input: { engine: Engine; model: string; config: RunConfig; poolRound: number; createdBy: number | null }): number {
  return Number(
    statement(db, 'INSERT INTO runs (engine, model, stage, config, pool_round, created_by, batch) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(input.engine, input.model, input.config.stage, JSON.stringify(input.config), input.poolRound, input.createdBy, input.config.batch ? 1 : 0).lastInsertRowid,
  );
}

export function getRun(db: Db, id: number): RunRecord | null {
  const row = statements(db).getRun.get(id) as RunRow | undefined;
  return row ? toRun(row) : null;
}

export function listRuns(db: Db, page: number, pageSize: number): { runs: RunRecord[]; total: number } {
  const total = (statement(db, 'SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n;
  const rows = statement(db, `SELECT ${RUN_COLUMNS} FROM runs ORDER BY id DESC LIMIT ? OFFSET ?`).all(pageSize, (page - 1) * pageSize) as RunRow[];
  return { runs: rows.map(toRun), total };
}

/**
 * Moves a run from one of `from` to `to`; false when it was in none of them (a race lost). A run
 * that runs again drops its stop reason: why it paused is no longer true.
 */
export function transitionRun(db: Db, id: number, from: RunStatus[], to: RunStatus, stopReason: string | null = null): boolean {
  const finished = to === 'done' || to === 'cancelled' || to === 'failed';
  const result = statement(db,
      `UPDATE runs SET status = ?, stop_reason = CASE WHEN ? = 'running' THEN NULL ELSE COALESCE(?, stop_reason) END,
        started_at = CASE WHEN ? = 'running' THEN COALESCE(started_at, ${NOW}) ELSE started_at END,
        finished_at = CASE WHEN ? THEN ${NOW} ELSE NULL END
       WHERE id = ? AND status IN (${from.map(() => '?').join(',')})`,
    )
    .run(to, to, stopReason, to, finished ? 1 : 0, id, ...from);
  return result.changes > 0;
}

export function markItemsPlanned(db: Db, id: number): void {
  statement(db, 'UPDATE runs SET items_planned = 1 WHERE id = ?').run(id);
}

export interface TaskRow {
  id: number;
  run_id: number;
  kind: 'proposals' | 'item';
  chart_type: ChartType | null;
  qa_id: number | null;
  proposal_id: number | null;
  idempotency_key: string;
  attempts: number;
  /** Who claimed it (NULL: a batch task, never claimed one by one). */
  owner_pid: number | null;
  owner_host: string | null;
  /** A model item task's pairing, once decided (migration 029); null before, and for every other task. */
  pairing: Pairing | null;
}

/** A task as stored: its pairing still JSON text. */
type StoredTaskRow = Omit<TaskRow, 'pairing'> & { pairing: string | null };

function toTask(row: StoredTaskRow): TaskRow {
  return { ...row, pairing: parseNullableJsonColumn(PairingSchema, row.pairing, { table: 'run_tasks', column: 'pairing', id: row.id }) };
}

/** A task's end was not stored: it is no longer held by who ran it (taken over, or released). Thrown inside the results' transaction, it rolls them back. */
export class TaskNotHeld extends Error {
  constructor(readonly taskId: number) {
    super(`run task ${taskId} is no longer held by this process: its result is dropped`);
  }
}

/** Adds a task; false when its key already exists (this run or another planned it). */
export function insertTask(
  db: Db,
  task: { runId: number; kind: 'proposals' | 'item'; chartType: ChartType | null; qaId: number | null; proposalId: number | null; key: string },
): boolean {
  const { insertTask: insert, countTask } = statements(db);
  const result = insert.run(task.runId, task.kind, task.chartType, task.qaId, task.proposalId, task.key);
  if (result.changes === 0) return false;
  countTask.run(task.runId);
  return true;
}

/** Which factual QAs a run may take (its split and chart type; with `onlyNew`, none that has an item or an open task). */
export interface QaFilters {
  split?: string;
  chartType?: ChartType;
  onlyNew: boolean;
  /** Only questions whose charts' types are confirmed (server/charts/type-state-queries.ts). */
  confirmedTypesOnly?: boolean;
}

/**
 * The WHERE of eligible QAs, and the chart type each is sampled under: a question over a group is
 * stored on its first chart, but a run for a chart type takes it when any member is of that type
 * (its assumption edits that chart), and counts it under that type.
 */
function qaWhere(filters: QaFilters): { sql: string; params: Record<string, string>; chartType: string } {
  // An archived split (migration 019) is out of every new run, named or not; its rows stay.
  const where: string[] = ['NOT EXISTS (SELECT 1 FROM splits s WHERE s.name = c.split AND s.archived_at IS NOT NULL)'];
  const params: Record<string, string> = {};
  if (filters.split) {
    where.push('c.split = @split');
    params.split = filters.split;
  }
  if (filters.chartType) {
    where.push(
      `(c.chart_type = @chart_type OR (q.group_id IS NOT NULL AND EXISTS (
         SELECT 1 FROM chart_group_members m JOIN charts gc ON gc.id = m.chart_id WHERE m.group_id = q.group_id AND gc.chart_type = @chart_type)))`,
    );
    params.chart_type = filters.chartType;
  }
  if (filters.confirmedTypesOnly) {
    // A group question edits one of its charts, any of them: every member's type must be confirmed.
    where.push(
      `NOT ${typeUnconfirmedSql('c')} AND (q.group_id IS NULL OR NOT EXISTS (
         SELECT 1 FROM chart_group_members m JOIN charts gc ON gc.id = m.chart_id WHERE m.group_id = q.group_id AND ${typeUnconfirmedSql('gc')}))`,
    );
  }
  if (filters.onlyNew) {
    where.push('NOT EXISTS (SELECT 1 FROM hqa_items i WHERE i.qa_id = q.id)');
    // NOT IN builds its list once; a correlated lookup would scan run_tasks (no index on qa_id) per QA.
    where.push("q.id NOT IN (SELECT t.qa_id FROM run_tasks t WHERE t.qa_id IS NOT NULL AND t.status IN ('pending', 'running'))");
  }
  return { sql: where.length ? `WHERE ${where.join(' AND ')}` : '', params, chartType: filters.chartType ? '@chart_type' : 'c.chart_type' };
}

/** The `limit` eligible QAs with the lowest ids, lowest first (a run's `id` order); `group_id` for a question over a chart group. */
export function lowestIdQas(db: Db, filters: QaFilters, limit: number): { id: number; chart_type: string; group_id: number | null }[] {
  const { sql, params, chartType } = qaWhere(filters);
  return statement(db, `SELECT q.id, ${chartType} AS chart_type, q.group_id FROM factual_qas q JOIN charts c ON c.id = q.chart_id ${sql} ORDER BY q.id LIMIT @limit`)
    .all({ ...params, limit }) as { id: number; chart_type: string; group_id: number | null }[];
}

/** Every eligible QA as ids, its chart's type and its group: what a stratified sample is drawn from. */
export function eligibleQaIds(db: Db, filters: QaFilters): { id: number; chartId: number; chartType: string; groupId: number | null }[] {
  const { sql, params, chartType } = qaWhere(filters);
  // Raw rows: no object per row and column name for what may be 100,000 QAs.
  const rows = statement(db, `SELECT q.id, q.chart_id, ${chartType} AS chart_type, q.group_id FROM factual_qas q JOIN charts c ON c.id = q.chart_id ${sql}`).raw().all(params) as [number, number, string, number | null][];
  return rows.map(([id, chartId, chartType, groupId]) => ({ id, chartId, chartType, groupId }));
}

/** The distinct chart types of a group's members: the types of proposals that may edit one of its charts. */
export function groupChartTypes(db: Db, groupId: number): string[] {
  return (statement(db, 'SELECT DISTINCT c.chart_type FROM chart_group_members m JOIN charts c ON c.id = m.chart_id WHERE m.group_id = ? ORDER BY c.chart_type').all(groupId) as { chart_type: string }[]).map((row) => row.chart_type);
}

export function countProposalItems(db: Db, proposalId: number): number {
  return (statements(db).proposalItems.get(proposalId) as { n: number }).n;
}

/**
 * Atomically takes for `owner` the next task of a kind that is pending, or running under a holder
 * whose claim went unrefreshed since `staleBefore` (one statement: no two workers get the same).
 */
export function claimNextTask(db: Db, runId: number, kind: 'proposals' | 'item', owner: Owner, staleBefore: string): TaskRow | null {
  const row = statements(db).claimTask.get({ runId, kind, pid: owner.pid, host: owner.host, staleBefore });
  return row ? toTask(row) : null;
}

/** Proves `owner` still works its running tasks of the run (with the run's heartbeat). */
export function refreshTaskClaims(db: Db, runId: number, owner: Owner): void {
  statements(db).refreshClaims.run({ runId, ...owner });
}

/** `owner` stops (pause, cancel, shutdown, taken over): its running tasks go back to pending, for anyone. */
export function releaseTasks(db: Db, runId: number, owner: Owner): number {
  return statements(db).releaseTasks.run({ runId, ...owner }).changes;
}

/**
 * After a crash or a takeover: running tasks whose holder `gone` judges gone go back to pending;
 * those a live process still holds stay its own. The number requeued.
 */
export function requeueOrphanTasks(db: Db, runId: number, gone: (holder: JobOwner) => boolean): number {
  const { runningTasks, requeueTask } = statements(db);
  let requeued = 0;
  for (const task of runningTasks.all(runId)) {
    if (!gone(task)) continue;
    requeued += requeueTask.run({ id: task.id, wasPid: task.owner_pid, wasHost: task.owner_host, wasClaimed: task.heartbeat_at }).changes;
  }
  return requeued;
}

/** Whether a process other than `owner` holds running tasks of the kind: a stage is not over until they end. */
export function tasksHeldElsewhere(db: Db, runId: number, kind: 'proposals' | 'item', owner: Owner): boolean {
  return (statements(db).heldElsewhere.get({ runId, kind, ...owner })?.n ?? 0) > 0;
}

/** A run's pending tasks of a kind, in planned order: what a batch run sends as one stage's batch (left pending until its results are stored). */
export function pendingTasks(db: Db, runId: number, kind: 'proposals' | 'item'): TaskRow[] {
  const rows = statement(db, `SELECT ${TASK_COLUMNS} FROM run_tasks WHERE run_id = ? AND kind = ? AND status = 'pending' ORDER BY id`).all(runId, kind) as StoredTaskRow[];
  return rows.map(toTask);
}

/**
 * Stores a task's pairing unless one is stored already, and returns the one that stands: a
 * task is paired once, so every request made for it offers the same (two processes deciding at
 * once store the first).
 */
export function storeTaskPairing(db: Db, taskId: number, pairing: Pairing): Pairing {
  statement(db, 'UPDATE run_tasks SET pairing = ? WHERE id = ? AND pairing IS NULL').run(JSON.stringify(pairing), taskId);
  const stored = statement(db, 'SELECT pairing FROM run_tasks WHERE id = ?').get(taskId) as { pairing: string | null } | undefined;
  const parsed = parseNullableJsonColumn(PairingSchema, stored?.pairing ?? null, { table: 'run_tasks', column: 'pairing', id: taskId });
  if (!parsed) throw new Error(`run task ${taskId}: its pairing was not stored (the task no longer exists)`);
  return parsed;
}


export function countTasks(db: Db, runId: number, status: 'pending' | 'running'): number {
  return (statement(db, 'SELECT COUNT(*) AS n FROM run_tasks WHERE run_id = ? AND status = ?').get(runId, status) as { n: number }).n;
}

export interface TaskOutcome {
  ok: boolean;
  error?: string;
  proposalsCreated?: number;
  itemsCreated?: number;
  itemFailed?: boolean;
  /**
   * With `ok`: the task ends without an item (or, Stage 1, a proposal) and without failing — the
   * model, the server or the offline rules found none possible — for this reason. An item task's
   * counts in `items_declined`.
   */
  declined?: string;
}

/** Marks a task finished and moves the run's counters with it; call inside the transaction that wrote its results. */
export function finishTask(db: Db, task: TaskRow, outcome: TaskOutcome): void {
  const { finishTask: finish, countFinished } = statements(db);
  const declined = outcome.ok ? (outcome.declined ?? null) : null;
  const stored = finish.run({ id: task.id, status: outcome.ok ? 'done' : 'failed', error: outcome.error ?? null, decline: declined, pid: task.owner_pid, host: task.owner_host });
  if (stored.changes === 0) throw new TaskNotHeld(task.id);
  countFinished.run(outcome.ok ? 1 : 0, outcome.ok ? 0 : 1, outcome.proposalsCreated ?? 0, outcome.itemsCreated ?? 0, outcome.itemFailed ? 1 : 0, declined !== null && task.kind === 'item' ? 1 : 0, task.run_id);
}

export function addRunUsage(db: Db, runId: number, usage: { calls: number; prompt_tokens: number; completion_tokens: number; cached_tokens: number; cost: number }): void {
  statements(db).addUsage.run(usage.calls, usage.prompt_tokens, usage.completion_tokens, usage.cached_tokens, usage.cost, runId);
}

/**
 * Sets a run's usage to the sum of its `llm_calls` rows. A task adds its calls' usage when it
 * finishes, so calls in flight when a process died are in `llm_calls` (written per attempt)
 * but not in the run. Call only while no process works the run.
 */
export function reconcileRunUsage(db: Db, runId: number): void {
  statement(db,
    `UPDATE runs SET (llm_calls, prompt_tokens, completion_tokens, cached_tokens, cost) =
       (SELECT COUNT(*), COALESCE(SUM(prompt_tokens), 0), COALESCE(SUM(completion_tokens), 0), COALESCE(SUM(cached_tokens), 0), COALESCE(SUM(cost), 0)
        FROM llm_calls WHERE run_id = @id)
     WHERE id = @id`,
  ).run({ id: runId });
}

/**
 * Puts failed tasks back to pending and takes them off the run's failure counts: tasks that
 * failed because the endpoint was down, to be tried again when the run resumes.
 */
export function reopenFailedTasks(db: Db, runId: number, taskIds: readonly number[]): number {
  const reopened = statement(db,
      `UPDATE run_tasks SET status = 'pending', error = NULL, updated_at = ${NOW}
       WHERE run_id = ? AND status = 'failed' AND id IN (SELECT value FROM json_each(?)) RETURNING kind`,
    )
    .all(runId, JSON.stringify(taskIds)) as { kind: string }[];
  const items = reopened.filter((task) => task.kind === 'item').length;
  statement(db, 'UPDATE runs SET tasks_failed = tasks_failed - ?, items_failed = items_failed - ? WHERE id = ?').run(reopened.length, items, runId);
  return reopened.length;
}

export function listRunErrors(db: Db, runId: number, limit = 200): RunError[] {
  return statement(db,
      `SELECT id AS task_id, kind, qa_id, chart_type, error, updated_at FROM run_tasks
       WHERE run_id = ? AND status = 'failed' ORDER BY id DESC LIMIT ?`,
    )
    .all(runId, limit) as RunError[];
}

/**
 * A run's declined tasks, newest first: who found nothing possible (the model offered candidates,
 * the server pairing none, or the offline engine's rules) and why.
 */
export function listRunDeclines(db: Db, runId: number, limit = 200): RunDecline[] {
  return statement(db,
      `SELECT t.id AS task_id, t.kind, t.qa_id, t.chart_type, t.decline_reason AS reason,
         CASE WHEN json_extract(t.pairing, '$.kind') = 'none' THEN 'server' WHEN r.engine = 'offline' THEN 'rules' ELSE 'model' END AS declined_by, t.updated_at
       FROM run_tasks t JOIN runs r ON r.id = t.run_id WHERE t.run_id = ? AND t.decline_reason IS NOT NULL ORDER BY t.id DESC LIMIT ?`,
    )
    .all(runId, limit) as RunDecline[];
}
