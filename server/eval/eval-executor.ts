import { FACTUAL_BASELINE_MODEL, type EvalMode, type EvalRun, type StartEvalRequestSchema } from '../../shared/api/evaluations';
import type { z } from 'zod';
import type { AppContext } from '../app-context';
import { immediateTransaction } from '../../db/transactions';
import { chartImage } from '../charts/chart-image';
import { imageMissingChartsOfAccepted } from '../charts/chart-queries';
import { imageMissingGroupChartsOfAccepted } from '../items/item-group-queries';
import { DomainError, notFound } from '../domain-error';
import { writeDespiteFullDisk } from '../../db/storage-reserve';
import type { JobExecutor } from '../jobs/job-kind';
import { DurableJobs } from '../jobs/durable-job';
import { pauseReasonOf } from '../jobs/storage-errors';
import { providersFor } from '../llm/model-roles';
import { getSettings } from '../settings/settings-queries';
import {
  addEvalUsage,
  claimNextQuestion,
  nextPendingQuestion,
  getEvalRun,
  insertEvalQuestions,
  insertEvalRun,
  publicEvalRun,
  recordAnswer,
  requeueRunningQuestions,
  transitionEvalRun,
  skipQuestion,
  upcomingQuestions,
  type ClaimedQuestion,
  type EvalRunRecord,
} from './eval-queries';
import { evalQuestions, judgeAnswer } from './eval-snapshot';
import { EvalAskError, openAiAsker, type ModelAsker } from './model-asker';
import { visionOptions } from '../llm/vision-image';
import { conditionQuestion } from './eval-question';
import { conditionDrawing, UndrawableItemError } from './condition-drawings';
import { CONDITION_PLANS, conditionDraws } from '../../shared/eval/conditions';
import { cancelEvalBatch, runEvalBatch } from './eval-batch-runs';
import { claimLoops } from '../jobs/bounded';

/** A parsed start request; callers inside the server may leave `batch` out (call by call). */
type StartEvalRequest = Omit<z.infer<typeof StartEvalRequestSchema>, 'batch'> & { batch?: boolean };

/** How often a busy run tells clients its progress. */
const YIELD_EVERY = 50;

/**
 * The factual baseline: answers every question with the item's original label, as a model would
 * that reads the chart but ignores the assumption. No call, no cost.
 */
const factualBaseline = (originalLabel: string) => ({ raw: `Answer: ${originalLabel}`, prediction: originalLabel, prompt_tokens: 0, completion_tokens: 0, cost: 0, attempts: 1 });

/**
 * How many rounds of questions (one per worker) the prefetch looks ahead. An item's drawn
 * conditions come first among its questions, so a look of two rounds (16 questions, three items)
 * left the render thread barely a round of lead: a drawing that took longer than a model's
 * answer held a worker. The render threads draw at a lowered priority (render-worker.ts), so
 * they fall behind while the loop is busy: 32 rounds keep about a hundred drawings queued
 * (~3 MB of PNG), well inside the drawing cache (condition-drawings.ts), so none is evicted
 * before its question is asked.
 */
const PREFETCH_ROUNDS = 32;
/** How often the prefetch looks, in rounds: each look is a query over the whole lead. */
const LOOK_EVERY_ROUNDS = 4;

/**
 * Charts without a PNG, and the drawn conditions' drawings, are drawn on a render thread, tens of
 * milliseconds each: drawn only when asked, every worker would wait for its drawing before its
 * call. The images of the next questions are drawn ahead, so drawing overlaps the model's answers.
 */
class ChartPrefetch {
  private readonly requested = new Set<string>();
  /** Drawings of the drawn conditions come back (made, or failed), by key: a question whose drawing is here is asked without a wait. */
  private readonly back = new Set<string>();
  private claims = 0;
  private readonly drawnConditions: readonly EvalMode[];

  constructor(
    private readonly ctx: AppContext,
    private readonly runId: number,
    private readonly ahead: number,
    conditions: readonly EvalMode[],
  ) {
    this.drawnConditions = conditions.filter(conditionDraws);
  }

  /**
   * Conditions the workers pass over for now: the drawn ones while the next drawn question's
   * drawing is not back. Render threads start cold (loading Vega and Skia takes seconds on a
   * slow machine), and a thread does not finish its drawings in the order asked: a worker that
   * took the next drawn question waited on it while the model idled. The other conditions'
   * questions are asked meanwhile; once only drawn ones are left, they are taken in order.
   */
  passOver(): readonly EvalMode[] {
    if (this.drawnConditions.length === 0) return [];
    const next = nextPendingQuestion(this.ctx.db, this.runId, this.drawnConditions);
    return next === null || this.back.has(drawingKey(next.condition, next.item_id)) ? [] : this.drawnConditions;
  }

  /**
   * Called at each claim; looks ahead every LOOK_EVERY_ROUNDS rounds (a look reads the next
   * PREFETCH_ROUNDS rounds' rows, ~250, to find the few new ones), so the lead stays between 28 and 32 rounds.
   */
  next(): void {
    if (this.claims++ % (this.ahead * LOOK_EVERY_ROUNDS) !== 0) return;
    for (const { item_id: itemId, chart_id: chartId, condition } of upcomingQuestions(this.ctx.db, this.runId, this.ahead * PREFETCH_ROUNDS)) {
      const image = CONDITION_PLANS[condition].image;
      if (image === 'none') continue;
      const key = image === 'chart' ? `chart:${chartId}` : drawingKey(condition, itemId);
      if (this.requested.has(key)) continue;
      this.requested.add(key);
      if (image === 'chart') {
        chartImage(this.ctx.db, chartId).catch((error: unknown) => this.ctx.logger.warn({ err: error, chartId }, 'drawing a chart ahead failed'));
        continue;
      }
      // A failed drawing is back too: its question, asked, fails or is skipped (undrawable) with its reason, at once.
      conditionDrawing(this.ctx.db, itemId, image)
        .catch((error: unknown) => {
          if (!(error instanceof UndrawableItemError)) this.ctx.logger.warn({ err: error, chartId, itemId }, 'drawing a chart ahead failed');
        })
        .finally(() => this.back.add(key));
    }
  }
}

/** An item's drawing for a drawn condition, as the prefetch knows it. */
const drawingKey = (condition: EvalMode, itemId: number): string => `${CONDITION_PLANS[condition].image}:${itemId}`;

export type AskerFactory = (run: EvalRunRecord) => ModelAsker | null;

/**
 * Starts, cancels and resumes evaluation runs. A run's questions are stored when it is created
 * (its snapshot), each answer as it arrives, so a run whose process died resumes where it was.
 * A run whose database cannot be written pauses (`storage_unavailable`) until a curator resumes it.
 */
export class EvalExecutor implements JobExecutor {
  private readonly jobs: DurableJobs;
  private readonly askerFor: AskerFactory;

  constructor(
    private readonly ctx: AppContext,
    askerFor?: AskerFactory,
  ) {
    this.jobs = new DurableJobs(ctx, {
      table: 'eval_runs',
      noun: 'evaluation run',
      progress: {
        event: 'eval.progressed',
        payload: (id) => {
          const run = getEvalRun(ctx.db, id);
          return run ? { run: publicEvalRun(ctx.db, run) } : null;
        },
      },
      settle: (id, to, reason) => void transitionEvalRun(ctx.db, id, ['running'], to, reason),
    });
    this.askerFor =
      askerFor ??
      ((run) => {
        if (run.engine !== 'openai') return null;
        const settings = getSettings(ctx.db);
        const { connection } = providersFor(settings, ctx.config).evaluation;
        if (!connection) throw new Error('OPENAI_API_KEY is not set');
        return openAiAsker({ db: ctx.db, connection, model: run.model, evalRunId: run.id, vision: visionOptions(settings) });
      });
  }

  /** Stores a run and starts it in the background: what the Evaluation page's "run" asks. */
  launch(request: StartEvalRequest, createdBy: number | null): EvalRun {
    const run = this.createRun(request, createdBy);
    void this.start(run.id);
    return run;
  }

  /** Stores the run and its questions (the accepted items now) in one transaction. */
  createRun(request: StartEvalRequest, createdBy: number | null): EvalRun {
    if (request.engine === 'openai' && !providersFor(getSettings(this.ctx.db), this.ctx.config).evaluation.connection) {
      throw new DomainError('bad_request', 'engine openai needs OPENAI_API_KEY on the server; without it use the factual baseline or import predictions', 'engine');
    }
    const conditions = request.conditions ?? [request.mode];
    if (request.batch === true && (conditions.length > 1 || conditions.some(conditionDraws))) {
      throw new DomainError('bad_request', 'a batch run asks one condition of hqa, original or no_image; ask the drawn conditions, or several at once, call by call', 'batch');
    }
    if (request.engine === 'openai' && conditions.some((condition) => CONDITION_PLANS[condition].image === 'chart')) {
      // A group item sends every chart of its group: a member's missing image refuses the run too.
      const missing = [...new Set([...imageMissingChartsOfAccepted(this.ctx.db), ...imageMissingGroupChartsOfAccepted(this.ctx.db)])].slice(0, 5);
      if (missing.length > 0) {
        throw new DomainError('conflict', `image missing for chart ${missing.join(', ')}: import its image (hqa import … --images DIR) or evaluate with mode no_image`);
      }
    }
    const model = request.engine === 'factual-baseline' ? FACTUAL_BASELINE_MODEL : (request.model ?? '');
    // Immediate: its `eval_run.created` tells clients once it committed.
    const id = immediateTransaction(this.ctx.db, () => {
      const mode = conditions[0] ?? request.mode;
      const runId = insertEvalRun(this.ctx.db, { model, engine: request.engine, mode, conditions, concurrency: request.concurrency, status: 'queued', createdBy, batch: request.batch === true });
      const count = insertEvalQuestions(this.ctx.db, runId, evalQuestions(this.ctx.db, conditions, request.limit));
      if (count === 0) {
        const skipped = (getEvalRun(this.ctx.db, runId)?.items_skipped ?? 0) > 0;
        throw new DomainError('conflict', skipped ? 'no accepted item can be asked under these conditions: every one was skipped (its edit cannot be drawn)' : 'there are no accepted items to evaluate yet: review some first');
      }
      this.ctx.events.emit('eval_run.created', { actor_id: createdBy, run_id: runId, model, engine: request.engine, mode, conditions, questions: count, batch: request.batch === true });
      return runId;
    });
    return publicEvalRun(this.ctx.db, this.mustGet(id));
  }

  /** Runs (or resumes) a run to its end; returns when it stops for any reason. */
  start(runId: number): Promise<void> {
    return this.jobs.start(runId, {
      begin: () => transitionEvalRun(this.ctx.db, runId, ['queued', 'running'], 'running'),
      execute: (controller) => this.execute(runId, controller),
    });
  }

  /**
   * A paused run goes on where it stopped: queued now, started once any of its workers still
   * winding down here have stopped (the questions they held go back to pending as it starts).
   */
  resume(runId: number, actorId: number | null = null): EvalRun {
    const run = this.mustGet(runId);
    if (run.status === 'paused') this.jobs.readyToResume(runId);
    const resumed = this.ctx.db.transaction(() => {
      if (!transitionEvalRun(this.ctx.db, runId, ['paused'], 'queued')) return false;
      this.ctx.events.emit('eval_run.resumed', { actor_id: actorId, run_id: runId, model: run.model, reason: run.error });
      return true;
    })();
    if (!resumed) throw new DomainError('conflict', `evaluation run ${runId} is ${run.status}, not paused`);
    // Nothing waits on the start: a start that fails (its claim unwritable) is logged, since an
    // unheard rejection would end the server, and the run, still queued, is taken up at the next start.
    void Promise.resolve(this.jobs.running(runId))
      .then(() => void this.start(runId))
      .catch((error: unknown) => this.ctx.logger.error({ err: error, evalRunId: runId }, 'starting a resumed evaluation run failed; it stays queued'));
    this.publishProgress(runId, true);
    return publicEvalRun(this.ctx.db, this.mustGet(runId));
  }

  cancel(runId: number, actorId: number | null = null): EvalRun {
    const run = this.mustGet(runId);
    const cancelled = this.ctx.db.transaction(() => {
      if (!transitionEvalRun(this.ctx.db, runId, ['queued', 'running', 'paused'], 'cancelled')) return false;
      this.ctx.events.emit('eval_run.cancelled', { actor_id: actorId, run_id: runId, model: run.model, was: run.status });
      return true;
    })();
    if (!cancelled) {
      throw new DomainError('conflict', `evaluation run ${runId} is ${run.status}; it cannot be cancelled`);
    }
    this.jobs.abort(runId);
    if (run.batch) {
      cancelEvalBatch(this.ctx, run)
        .catch((error: unknown) => this.ctx.logger.warn({ err: error, evalRunId: runId }, 'cancelling the batch at the provider failed'))
        .finally(() => this.publishProgress(runId, true));
    }
    this.publishProgress(runId, true);
    return publicEvalRun(this.ctx.db, this.mustGet(runId));
  }

  get kind(): JobExecutor['kind'] {
    return this.jobs.kind;
  }

  /** At server start: runs left running or queued by a process that is gone are taken up again; paused ones wait for a resume. */
  resumeOrphans(): number[] {
    return this.jobs.takeOrphans((runId) => void this.start(runId));
  }

  /** Server shutdown: runs stay `running` and resume at the next start. */
  shutdown(): Promise<void> {
    return this.jobs.shutdown();
  }

  /** Run `runId` as clients see it (not found: a DomainError). */
  get(runId: number): EvalRun {
    return publicEvalRun(this.ctx.db, this.mustGet(runId));
  }

  private mustGet(runId: number): EvalRunRecord {
    const run = getEvalRun(this.ctx.db, runId);
    if (!run) throw notFound(`evaluation run ${runId}`);
    return run;
  }

  private async execute(runId: number, controller: AbortController): Promise<void> {
    const { db } = this.ctx;
    const run = this.mustGet(runId);
    // The run is this process's now and none of its workers runs yet: a question still marked
    // running was claimed by a stop (pause, shutdown, a dead process) before its answer was stored.
    requeueRunningQuestions(db, runId);
    if (run.batch && run.engine === 'openai') {
      const finished = await runEvalBatch(this.ctx, run, { pollMs: this.ctx.config.batchPollMs, signal: controller.signal, onProgress: () => this.publishProgress(runId, true) });
      if (finished && !controller.signal.aborted) transitionEvalRun(db, runId, ['running'], 'done');
      return;
    }
    const asker = this.askerFor(run);
    this.publishProgress(runId, true);
    let answered = 0;
    const drawAhead = asker && run.conditions.some((condition) => CONDITION_PLANS[condition].image !== 'none') ? new ChartPrefetch(this.ctx, runId, run.concurrency, run.conditions) : null;
    const work = async () => {
      try {
        while (!controller.signal.aborted) {
          const question = claimNextQuestion(db, runId, drawAhead?.passOver());
          if (!question) return;
          drawAhead?.next();
          await this.answer(run, asker, question, controller.signal);
          this.publishProgress(runId, false);
          // The factual baseline never waits on I/O: let requests in between its answers.
          if (!asker && ++answered % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (error) {
        const reason = pauseReasonOf(error);
        if (reason === null) throw error;
        // Caught in the loop, not by the job: the other loops stop (abort) and the job ends only
        // once all have, so a resume never runs beside a loop of the paused run. The question it
        // held stays running, and goes back to pending when the run starts again.
        this.pauseFor(runId, reason, error, controller);
      }
    };
    await claimLoops(run.concurrency, work);
    if (controller.signal.aborted) return;
    transitionEvalRun(db, runId, ['running'], 'done');
  }

  private async answer(run: EvalRunRecord, asker: ModelAsker | null, claimed: ClaimedQuestion, signal: AbortSignal): Promise<void> {
    const { db } = this.ctx;
    try {
      let answer;
      if (asker) {
        answer = await asker.ask(await conditionQuestion(this.ctx.db, claimed), signal);
      } else {
        answer = factualBaseline(claimed.original_label);
      }
      const verdict = judgeAnswer(claimed, answer.prediction);
      db.transaction(() => {
        recordAnswer(db, run.id, claimed, { failed: false, prediction: answer.prediction, raw: answer.raw, ...verdict, error: null });
        addEvalUsage(db, run.id, answer);
      })();
    } catch (error) {
      // The item changed since the snapshot (its edit no longer draws): skipped with the reason, out of the score.
      if (error instanceof UndrawableItemError) {
        skipQuestion(db, run.id, claimed, error.message);
        return;
      }
      if (!(error instanceof EvalAskError)) throw error;
      // A cancelled call is asked again when the run resumes; a run cancelled for good marks it failed.
      if (error.cancelled) return;
      recordAnswer(db, run.id, claimed, { failed: true, prediction: null, raw: null, correct: false, biased: false, error: error.message });
    }
  }

  /**
   * The database cannot be written (a full disk, a read-only file): the run pauses with reason
   * `storage_unavailable: …` and its calls in flight (`controller`, while it still works) are
   * cancelled. If even the pause cannot be written, the run stays `running`, unowned here once
   * it stops: the next start takes it up.
   */
  private pauseFor(runId: number, reason: string, error: unknown, controller?: AbortController): void {
    // Already stopping (a cancel, a shutdown, another loop's pause): that stop decides the status.
    if (controller?.signal.aborted) return;
    this.ctx.logger.error({ err: error, evalRunId: runId }, 'evaluation run paused: the database cannot be written now');
    try {
      writeDespiteFullDisk(this.ctx.db, () => transitionEvalRun(this.ctx.db, runId, ['running'], 'paused', reason));
    } catch (pauseError) {
      this.ctx.logger.error({ err: pauseError, evalRunId: runId }, 'the pause could not be recorded either; the run stays unfinished');
    }
    controller?.abort();
  }

  private publishProgress(runId: number, force: boolean): void {
    this.jobs.progressed(runId, force);
  }
}
