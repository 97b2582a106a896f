import type { Run, RunConfig } from '../../shared/api/runs';
import { OFFLINE_MODEL, type RunStatus } from '../../shared/domain/generation';
import type { AppContext } from '../app-context';
import { immediateTransaction } from '../../db/transactions';
import { rejectedAssumptions } from '../items/item-queries';
import { isBusyError, isStorageError, pauseReasonOf } from '../jobs/storage-errors';
import { DomainError, notFound } from '../domain-error';
import { maxPoolRound } from '../pool/pool-queries';
import { announceProposals } from '../pool/pool-commands';
import { callCost } from '../llm/cost';
import { getSettings } from '../settings/settings-queries';
import { NO_USAGE, type EngineResult, type GenerationEngine, type ItemRequest } from './engine';
import { TransportStreak } from './transport-streak';
import { endTaskUnpaired, endTaskWithoutTable, storeItemResult, storeProposalResult } from './task-results';
import { alternativesFor } from './alternatives';
import { stage1Targets } from './stage1-targets';
import { offerOf, pairTask, taskSubject } from './pairing';
import { cancelRunBatch, runStageBatch } from './batch-stage';
import { EventLoopSlices } from './event-loop-slices';
import type { JobExecutor } from '../jobs/job-kind';
import { writeDespiteFullDisk } from '../../db/storage-reserve';
import { DurableJobs, type DurableJobOptions } from '../jobs/durable-job';
import { ownerGone, STALE_OWNER_MS } from '../jobs/job-owner';
import { abortableSleep } from '../llm/retry';
import { BUSY_ATTEMPTS, busyBackoff, busyRetried } from '../jobs/busy-retry';
import { isControlTask, mulberry32, planItemTasks, planProposalTasks, proposalTaskScope, sampleExamples, selectQas } from './run-planner';
import { hasModelEndpoint } from '../llm/model-roles';
import { claimLoops } from '../jobs/bounded';
import {
  addRunUsage,
  claimNextTask,
  finishTask,
  getRun,
  insertRun,
  publicRun,
  reconcileRunUsage,
  refreshTaskClaims,
  releaseTasks,
  reopenFailedTasks,
  requeueOrphanTasks,
  tasksHeldElsewhere,
  TaskNotHeld,
  transitionRun,
  type RunRecord,
  type TaskRow,
} from './run-queries';

/** How often a busy run tells clients its progress. */
/**
 * Longest stretch runs work between two turns of the event loop (see EventLoopSlices), plus the
 * task under way: short enough that a request waits for a few milliseconds, long enough that
 * the turns cost an offline run nothing it would notice.
 */
const WORK_SLICE_MS = 5;
/** How often a worker with nothing to claim looks again while another process still holds tasks of the stage. */
const HELD_ELSEWHERE_POLL_MS = 250;


/** A task stopped by pause, cancel or shutdown, with the usage of the calls it had made. */
class AbortedWithUsage extends Error {
  constructor(readonly usage: Parameters<typeof addRunUsage>[2]) {
    super('aborted');
  }
}

export type EngineFactory = (run: RunRecord) => GenerationEngine;

type EngineOutcome = EngineResult<object>;

/**
 * Starts, pauses, cancels and resumes generation runs. A run's plan lives in `run_tasks`, so
 * any process can pick up a run whose owner died: in-flight tasks go back to pending and the
 * idempotency key per proposal × QA keeps anything from being made twice.
 */
export class RunExecutor implements JobExecutor {
  private readonly jobs: DurableJobs;
  /** Shared by every run of this process, so two offline runs together still leave room for requests. */
  private readonly slices = new EventLoopSlices(WORK_SLICE_MS);

  constructor(
    private readonly ctx: AppContext,
    private readonly engineFor: EngineFactory,
    /** Who this process is on the runs and tasks it works; tests give two executors one database file. */
    jobOptions: DurableJobOptions = {},
  ) {
    this.jobs = new DurableJobs(
      ctx,
      {
        table: 'runs',
        noun: 'generation run',
        progress: {
          event: 'run.progressed',
          payload: (id) => {
            const run = getRun(ctx.db, id);
            return run ? { run: publicRun(run) } : null;
          },
        },
        settle: (id, to, reason) => void transitionRun(ctx.db, id, ['running'], to, reason),
      },
      jobOptions,
    );
  }

  get kind(): JobExecutor['kind'] {
    return this.jobs.kind;
  }

  /** Stores a run and starts it in the background: what the Runs page's "start" asks. */
  launch(config: RunConfig, createdBy: number | null): Run {
    const run = this.createRun(config, createdBy);
    void this.start(run.id);
    return run;
  }

  /** `viaFile`: the requests go through a file (`hqa generate --batch-out`), so no endpoint is needed. */
  createRun(config: RunConfig, createdBy: number | null, viaFile = false): Run {
    if (config.engine === 'openai' && !viaFile && !hasModelEndpoint(this.ctx.config)) {
      throw new DomainError('bad_request', 'engine openai needs OPENAI_API_KEY; without it use the offline engine', 'engine');
    }
    if (config.batch && config.engine !== 'openai') throw new DomainError('bad_request', 'only the openai engine sends its requests through the Batch API', 'batch');
    const settings = getSettings(this.ctx.db);
    const model = config.engine === 'offline' ? OFFLINE_MODEL : (config.model ?? settings.generation_model);
    // An unpriced model's calls cost 0 (callCost), so a money cap would never stop the run. The offline engine costs nothing, truly.
    if (config.engine === 'openai' && config.budget_cost !== null && !callCost(model, { prompt_tokens: 0, completion_tokens: 0 }, settings.price_table).priced) {
      throw new DomainError(
        'bad_request',
        `model '${model}' has no price in the settings price table, so a money budget cannot be enforced; add its price or cap tokens instead`,
        'budget_cost',
      );
    }
    const id = immediateTransaction(this.ctx.db, () => {
      const created = insertRun(this.ctx.db, { engine: config.engine, model, config, poolRound: maxPoolRound(this.ctx.db), createdBy });
      this.ctx.events.emit('run.created', { actor_id: createdBy, run_id: created, engine: config.engine, model, stage: config.stage });
      return created;
    });
    return publicRun(this.mustGet(id));
  }

  /** Runs (or resumes) a run to its end; returns when it stops for any reason. */
  start(runId: number): Promise<void> {
    return this.jobs.start(runId, {
      begin: () => transitionRun(this.ctx.db, runId, ['queued', 'paused', 'running'], 'running'),
      execute: (controller) => this.execute(runId, controller),
      // The run's heartbeat vouches for its tasks in flight here: no other process takes them while it beats.
      onBeat: () => refreshTaskClaims(this.ctx.db, runId, this.jobs.ownerId),
    });
  }

  /** `actorId`, here and in cancel and resume: who, for the audit log (null: the CLI). */
  pause(runId: number, actorId: number | null = null): Run {
    return this.stop(runId, ['running', 'queued'], 'paused', actorId);
  }

  cancel(runId: number, actorId: number | null = null): Run {
    const run = this.stop(runId, ['running', 'queued', 'paused'], 'cancelled', actorId);
    if (run.config.batch) {
      const record = this.mustGet(runId);
      cancelRunBatch(this.ctx, record).catch((error: unknown) => this.ctx.logger.warn({ err: error, runId }, 'cancelling the run\'s batch at the provider failed'));
    }
    return run;
  }

  /**
   * Resumes a paused run. A run paused a moment ago may still be winding down here (its calls in
   * flight being cancelled): the new execution starts once that one has stopped, or `start` would
   * find it still running, start nothing, and leave the run paused for good.
   */
  async resume(runId: number, actorId: number | null = null): Promise<Run> {
    const run = this.mustGet(runId);
    if (run.status !== 'paused') throw new DomainError('conflict', `run ${runId} is ${run.status}, not paused`);
    // How the last execution ended is its own record (its failure handler ran); only its end matters here.
    await this.jobs.running(runId)?.catch(() => undefined);
    if (this.mustGet(runId).status !== 'paused') throw new DomainError('conflict', `run ${runId} is ${this.mustGet(runId).status}, not paused`);
    this.jobs.readyToResume(runId);
    this.ctx.db.transaction(() => {
      this.requeueOrphanTasks(runId);
      this.ctx.events.emit('run.resumed', { actor_id: actorId, run_id: runId });
    }).immediate();
    // Paused while its process died (a crash): its last calls may be in llm_calls only.
    if (!this.jobs.has(runId) && this.jobs.ownerDied(run)) reconcileRunUsage(this.ctx.db, runId);
    void this.start(runId);
    return publicRun(this.mustGet(runId));
  }

  /**
   * `hqa generate --run N`: takes up a run no live process works — paused, or left running by
   * one that died (a batch run then re-attaches to its batch in flight) — and runs it here.
   */
  continueRun(runId: number): Promise<void> {
    const running = this.jobs.running(runId);
    if (running) return running;
    const run = this.mustGet(runId);
    if (!['paused', 'running', 'queued'].includes(run.status)) throw new DomainError('conflict', `run ${runId} is ${run.status}; only a paused or unfinished run can be continued`);
    if (run.status === 'paused' || this.jobs.ownerDied(run)) {
      this.requeueOrphanTasks(runId);
      if (this.jobs.ownerDied(run)) reconcileRunUsage(this.ctx.db, runId);
    }
    return this.start(runId);
  }

  /** At server start: runs left running or queued by a process that is gone are taken up again. */
  resumeOrphans(): number[] {
    return this.jobs.takeOrphans((runId) => {
      this.requeueOrphanTasks(runId);
      reconcileRunUsage(this.ctx.db, runId);
      void this.start(runId);
    });
  }

  /** Stops every run this process executes (server shutdown): they stay `running` and resume next start. */
  shutdown(): Promise<void> {
    return this.jobs.shutdown();
  }

  private stop(runId: number, from: RunStatus[], to: 'paused' | 'cancelled', actorId: number | null): Run {
    const run = this.mustGet(runId);
    const { db } = this.ctx;
    const stopped = db.transaction(() => {
      const changed = transitionRun(db, runId, from, to);
      if (changed) this.ctx.events.emit('run.stopped', { actor_id: actorId, run_id: runId, to });
      return changed;
    }).immediate();
    if (!stopped) throw new DomainError('conflict', `run ${runId} is ${run.status}; it cannot be ${to}`);
    this.jobs.abort(runId);
    this.publishProgress(runId, true);
    return publicRun(this.mustGet(runId));
  }

  /**
   * Tasks left running by a process that is gone go back to pending; those a live process still
   * holds (a run taken over from a host whose run heartbeat looked stale while it still worked)
   * stay its own, judged by this host's clock: their holder releases them when it stops.
   */
  /**
   * Running tasks nobody works go back to pending: a dead process's, and this process's own when
   * the run no longer executes here (its stop could not release them: a pause on a full disk
   * cannot write that either). Left running, they were never made, and the run ended `done`.
   */
  private requeueOrphanTasks(runId: number): void {
    const self = this.jobs.ownerId;
    const idleHere = !this.jobs.has(runId);
    requeueOrphanTasks(this.ctx.db, runId, (holder) => ownerGone(holder, self) || (idleHere && holder.owner_pid === self.pid && holder.owner_host === self.host));
  }

  private mustGet(runId: number): RunRecord {
    const run = getRun(this.ctx.db, runId);
    if (!run) throw notFound(`run ${runId}`);
    return run;
  }

  private async execute(runId: number, controller: AbortController): Promise<void> {
    const { db } = this.ctx;
    const run = this.mustGet(runId);
    if (run.config.batch) return this.executeInBatches(run, controller);
    const engine = this.engineFor(run);
    const streak = new TransportStreak(getSettings(db).pause_after_transport_failures);
    await busyRetried(() => planProposalTasks(db, run), controller.signal);
    this.publishProgress(runId, true);
    await this.workers(run, engine, 'proposals', controller, streak);
    if (controller.signal.aborted) return;
    await busyRetried(() => planItemTasks(db, this.mustGet(runId)), controller.signal);
    this.publishProgress(runId, true);
    await this.workers(run, engine, 'item', controller, streak);
    if (controller.signal.aborted) return;
    transitionRun(db, runId, ['running'], 'done');
  }

  /** A batch run: each stage's pending tasks as one batch (`batch-stage.ts`), Stage 2's once Stage 1's results are stored. */
  private async executeInBatches(run: RunRecord, controller: AbortController): Promise<void> {
    const { db } = this.ctx;
    const options = { pollMs: this.ctx.config.batchPollMs, signal: controller.signal, onProgress: () => this.publishProgress(run.id, true) };
    planProposalTasks(db, run);
    this.publishProgress(run.id, true);
    // A budget is checked before a stage's batch is sent; inside a batch every request is already paid for.
    if (this.budgetReached(run.id, controller) || !(await runStageBatch(this.ctx, this.mustGet(run.id), 'proposals', options))) return;
    planItemTasks(db, this.mustGet(run.id));
    this.publishProgress(run.id, true);
    if (this.budgetReached(run.id, controller) || !(await runStageBatch(this.ctx, this.mustGet(run.id), 'item', options))) return;
    transitionRun(db, run.id, ['running'], 'done');
  }

  private async workers(run: RunRecord, engine: GenerationEngine, kind: 'proposals' | 'item', controller: AbortController, streak: TransportStreak): Promise<void> {
    const work = async () => {
      while (!controller.signal.aborted) {
        // Asked again after the turn: another worker may have used up the new slice meanwhile.
        const turn = this.slices.turnIfDue();
        if (turn) {
          await turn;
          continue;
        }
        if (this.budgetReached(run.id, controller)) return;
        const task = await busyRetried(() => claimNextTask(this.ctx.db, run.id, kind, this.jobs.ownerId, new Date(Date.now() - STALE_OWNER_MS).toISOString()), controller.signal);
        if (!task) {
          // The stage ends when its last task does, wherever it runs: one still held elsewhere may yet come back to pending (released, or its holder gone).
          if (!tasksHeldElsewhere(this.ctx.db, run.id, kind, this.jobs.ownerId)) return;
          await abortableSleep(HELD_ELSEWHERE_POLL_MS, controller.signal);
          continue;
        }
        await this.runTask(run, engine, task, controller, streak);
      }
    };
    await claimLoops(run.config.concurrency, work);
  }

  /** Stops the run cleanly once its token or cost cap is reached; in-flight calls finish. */
  private budgetReached(runId: number, controller: AbortController): boolean {
    const run = this.mustGet(runId);
    const tokens = run.prompt_tokens + run.completion_tokens;
    let reason: string | null = null;
    if (run.config.budget_tokens !== null && tokens >= run.config.budget_tokens) reason = `budget cap reached: ${tokens} tokens of ${run.config.budget_tokens}`;
    if (run.config.budget_cost !== null && run.cost >= run.config.budget_cost) reason = `budget cap reached: $${run.cost.toFixed(4)} of $${run.config.budget_cost}`;
    if (!reason) return false;
    if (transitionRun(this.ctx.db, runId, ['running'], 'done', reason)) controller.abort();
    return true;
  }

  private async runTask(run: RunRecord, engine: GenerationEngine, task: TaskRow, controller: AbortController, streak: TransportStreak, attempt = 1): Promise<void> {
    const { db } = this.ctx;
    const { signal } = controller;
    try {
      const outcome = task.kind === 'proposals' ? await this.runProposalTask(run, engine, task, signal) : await this.runItemTask(run, engine, task, signal);
      if (streak.record(task.id, outcome)) this.pauseForEndpoint(run.id, streak, controller);
    } catch (error) {
      if (signal.aborted) {
        // Calls made before the stop were paid for: a budget must see them.
        if (error instanceof AbortedWithUsage) addRunUsage(db, run.id, error.usage);
        releaseTasks(db, run.id, this.jobs.ownerId);
        return;
      }
      if (error instanceof TaskNotHeld) {
        // Another process took the task over meanwhile: its end is that process's to store.
        this.ctx.logger.warn({ runId: run.id, taskId: task.id }, 'generation task result dropped: the task was taken over');
        return;
      }
      if (isStorageError(error)) {
        // The task is not at fault: it stays to be made when the run is resumed with room again.
        this.pauseFor(run.id, error, controller);
        return;
      }
      if (isBusyError(error)) {
        // Its write was rolled back whole: the task, still held here, is made again once the other writer is done.
        if (attempt < BUSY_ATTEMPTS) {
          await abortableSleep(busyBackoff(attempt), signal);
          if (!signal.aborted) return this.runTask(run, engine, task, controller, streak, attempt + 1);
        }
        this.pauseFor(run.id, error, controller);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      this.ctx.logger.warn({ err: error, runId: run.id, taskId: task.id }, 'generation task failed');
      try {
        db.transaction(() => finishTask(db, task, { ok: false, error: `internal error: ${message}`, itemFailed: task.kind === 'item' })).immediate();
      } catch (finishError) {
        if (!(finishError instanceof TaskNotHeld)) throw finishError;
      }
    }
    this.publishProgress(run.id, false);
  }

  /** Each task returns its engine's outcome, for the transport streak. */
  private async runProposalTask(run: RunRecord, engine: GenerationEngine, task: TaskRow, signal: AbortSignal): Promise<EngineOutcome> {
    const { db } = this.ctx;
    const chartType = task.chart_type;
    if (!chartType) throw new Error(`task ${task.id} has no chart type`);
    const settings = getSettings(db);
    const scope = proposalTaskScope(task);
    const examples = sampleExamples(db, chartType, settings, mulberry32(task.id), run.config.weight_to_gaps, scope);
    // The rules can tell which proposals change which answers: they grow the pool toward the run's questions.
    const toward = engine.engine === 'offline' && scope === 'chart' ? stage1Targets(db, selectQas(db, run), chartType, mulberry32(task.id)) : {};
    const result = await engine.proposals({ runId: run.id, taskId: task.id, chartType, examples, count: settings.proposals_per_call, scope, signal, ...toward });
    if (!result.ok && signal.aborted) throw new AbortedWithUsage(result.usage);
    const created = storeProposalResult(db, run, task, { chartType, scope, examples, settings }, result);
    announceProposals(this.ctx, created);
    return result;
  }

  private async runItemTask(run: RunRecord, engine: GenerationEngine, task: TaskRow, signal: AbortSignal): Promise<EngineOutcome> {
    const { db } = this.ctx;
    const noItems = endTaskWithoutTable(db, task, engine.engine);
    if (noItems) return { ok: false, reason: noItems, usage: NO_USAGE };
    const settings = getSettings(db);
    const { source, proposal } = taskSubject(db, task);
    const control = isControlTask(task.id, settings.unchanged_control_share);
    const planned = { id: proposal.id, text: proposal.text, chartType: proposal.chart_type };
    let request: Pick<ItemRequest, 'alternatives' | 'offer' | 'rejectedAssumptions' | 'maxChangeShare'>;
    if (engine.engine === 'offline') {
      // The rules pair the question themselves, trying the pool's other proposals when the task's cannot move its answer.
      // A group question's alternatives are group proposals of any chart type the group holds (each edits a chart of its type).
      const types = source.group ? [...new Set(source.group.charts.map((member) => member.chart_type))] : [source.chart.chart_type];
      request = { alternatives: alternativesFor(db, run, types, { ...planned, scope: proposal.scope }), rejectedAssumptions: rejectedAssumptions(db, source.qa.id), maxChangeShare: settings.max_change_share };
    } else {
      // A model is asked only about a pairing that can work: decided once, before the first request.
      const pairing = await pairTask(db, run, task, settings);
      if (pairing.kind === 'none') {
        endTaskUnpaired(db, task, pairing.reason);
        return { ok: true, usage: NO_USAGE };
      }
      request = { alternatives: [], offer: offerOf(db, task, pairing) };
    }
    const result = await engine.item({ runId: run.id, taskId: task.id, source, proposal: planned, control, signal, ...request });
    if (!result.ok && signal.aborted) throw new AbortedWithUsage(result.usage);
    const item = storeItemResult(db, run, task, { source, proposal, control, engine }, result);
    if (item) this.ctx.events.emit('item.created', { item });
    return result;
  }

  /**
   * The database cannot be written now (a full disk, or locked by another process past every
   * retry): the run pauses with that reason (`pauseReasonOf`) and its calls in flight are cancelled; its tasks in flight go back to
   * pending on resume. If even the pause cannot be written, the run stays `running`, unowned
   * here once it stops: a resume or the next start takes it up.
   */
  private pauseFor(runId: number, error: unknown, controller: AbortController): void {
    if (controller.signal.aborted) return;
    this.ctx.logger.error({ err: error, runId }, 'generation run paused: the database cannot be written now');
    try {
      writeDespiteFullDisk(this.ctx.db, () => transitionRun(this.ctx.db, runId, ['running'], 'paused', pauseReasonOf(error) ?? String(error)));
    } catch (pauseError) {
      this.ctx.logger.error({ err: pauseError, runId }, 'the pause could not be recorded either; the run stays unfinished');
    }
    controller.abort();
  }

  /**
   * The endpoint failed the streak's tasks, not their content: they go back to pending with the
   * pause, so resuming once the endpoint is back makes them. Calls in flight are cancelled.
   */
  private pauseForEndpoint(runId: number, streak: TransportStreak, controller: AbortController): void {
    const { db } = this.ctx;
    const reason = streak.reason();
    const paused = db.transaction(() => {
      if (!transitionRun(db, runId, ['running'], 'paused', reason)) return false;
      reopenFailedTasks(db, runId, streak.taskIds());
      return true;
    }).immediate();
    if (!paused) return;
    this.ctx.logger.warn({ runId, reason }, 'generation run paused: endpoint unreachable');
    controller.abort();
  }


  private publishProgress(runId: number, force: boolean): void {
    this.jobs.progressed(runId, force);
  }
}
