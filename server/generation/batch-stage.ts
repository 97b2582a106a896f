import type { Settings } from '../../shared/settings';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import type { Converted } from '../../shared/generation/model-output';
import type { AppContext } from '../app-context';
import { getChartImage } from '../charts/chart-queries';
import { batchClient } from '../llm/batch-api';
import { batchInputLine, type BatchInputLine, type BatchLineResult } from '../llm/batch-lines';
import { ENDED_BATCH_STATES, latestRunBatch } from '../llm/batch-queries';
import { awaitBatch, cancelBatch, finishBatch, recordBatchCall, sendBatch, type BatchTarget } from '../llm/batch-runner';
import { listLlmCalls, settleLlmCall, type LlmCall } from '../llm/llm-call-queries';
import { repairMessage, structuredBody, validateReply } from '../llm/llm-client';
import { providersFor } from '../llm/model-roles';
import { announceProposals } from '../pool/pool-commands';
import { getSettings } from '../settings/settings-queries';
import { NO_USAGE, type EngineUsage } from './engine';
import { isControlTask, mulberry32, proposalTaskScope, sampleExamples } from './run-planner';
import { addRunUsage, pendingTasks, type RunRecord, type TaskRow } from './run-queries';
import { itemMessages, itemTemplateFor, proposalMessages, STAGE_WIRES, stage1Template, stage2Images, stage2Template, stage2Wire, type Stage2Messages } from './stage-prompts';
import { requestImages, type RequestImages } from '../llm/image-tokens';
import { visionOptions } from '../llm/vision-image';
import { offerOf, pairTask, taskSubject } from './pairing';
import { endTaskUnpaired, endTaskWithoutTable, noTableReason, storeItemResult, storeProposalResult, type ItemResult } from './task-results';

/**
 * A generation stage as one batch: the stage's pending tasks become request lines (custom_id
 * `task-<id>`, each body exactly what the call-by-call engine sends), and each result is
 * stored as that engine's reply would be (`task-results.ts`: same parsing, same verification).
 * Stage 2 needs Stage 1's proposals, so a run sends one batch per stage, the next once the
 * first is stored. The results come from the OpenAI Batch API (`runStageBatch`: one `llm_calls`
 * row per result, at the batch price) or from a file `vllm run-batch` wrote (`storeStageResults`
 * without calls: nothing went through our provider, so nothing is recorded or costed).
 */

export type StageKind = 'proposals' | 'item';

/** The `llm_calls` purpose of a stage's requests, as the call-by-call engine records them. */
export const STAGE_PURPOSE: Record<StageKind, 'stage1' | 'stage2'> = { proposals: 'stage1', item: 'stage2' };

export const customIdOf = (task: TaskRow) => `task-${task.id}`;

type Made = { proposals: ReturnType<typeof storeProposalResult>; items: NonNullable<ReturnType<typeof storeItemResult>>[] };

/** One pending task's request, and how its reply is stored. */
export interface StageTask {
  task: TaskRow;
  customId: string;
  messages: Stage2Messages;
  /** Stage 2's images as the request carries them, estimated for its `llm_calls` row; none for Stage 1. */
  images?: RequestImages;
  /** The template its messages were rendered from, as its `llm_calls` row records it: Stage 2 over a group has its own. */
  template: { name: string; hash: string };
  /** The structured output its request asks for: Stage 1's, or Stage 2's for its chart or group and its pairing (`stage2Wire`). */
  wire: { schema: z.ZodType<unknown>; name: string };
  /** The repair turns after an invalid first reply (the engine's one repair), else none. */
  repairTurns: ChatCompletionMessageParam[];
  /** Reads the reply as the engine does and stores it; what it made is collected in `made`. */
  store: (reply: Reply, made: Made) => void;
}

/** A result as the engine would have returned it: the reply's content read, or why there is none. */
type Reply = { ok: true; content: string | null; finishReason: string | null; usage: EngineUsage; callId: number | null } | { ok: false; reason: string; usage: EngineUsage };

/**
 * The reply's content through the engine's parsing. Invalid output is settled `invalid` on its
 * `llm_calls` row, as the engine settles it; a first invalid reply of the Batch API is asked
 * once more (`repair`: the task stays pending for the stage's next batch, with the engine's
 * repair turn), a second fails the task as the engine's would. A file's reply has no second turn.
 */
function readReply<W, T>(ctx: AppContext, reply: Reply, wire: { schema: z.ZodType<W>; convert: (value: W) => Converted<T> }, repaired: boolean) {
  if (!reply.ok) return { ok: false as const, reason: reply.reason, usage: reply.usage };
  const checked = validateReply(reply.content, reply.finishReason, { wireSchema: wire.schema, convert: wire.convert });
  if (checked.ok) return { ok: true as const, value: checked.value, usage: reply.usage };
  if (reply.callId === null) return { ok: false as const, reason: `${checked.kind} (no repair turn for a file's reply): ${checked.error}`, usage: reply.usage };
  settleLlmCall(ctx.db, reply.callId, 'invalid', `${checked.kind}: ${checked.error}`);
  if (!repaired) return { ok: 'repair' as const, usage: reply.usage };
  return { ok: false as const, reason: `${checked.kind} after repair: ${checked.error}`, usage: reply.usage };
}

/** Kinds of invalid output (`validateReply`) hold no ': ', so the row's error splits back into kind and message. */
function splitInvalid(error: string | null): string {
  const at = (error ?? '').indexOf(': ');
  return at < 0 ? (error ?? '') : (error ?? '').slice(at + 2);
}

/**
 * The repair turns of a task whose latest batch reply was invalid: the reply, then the engine's
 * repair request naming the error — rebuilt from its `llm_calls` row, so a restarted run asks the same.
 */
function repairTurnsOf(calls: LlmCall[] | undefined, schemaName: string): ChatCompletionMessageParam[] {
  const last = calls?.at(-1);
  if (!last || last.outcome !== 'invalid' || last.batch_id === null) return [];
  return [
    { role: 'assistant', content: last.raw_output ?? '' },
    { role: 'user', content: repairMessage(splitInvalid(last.error), schemaName) },
  ];
}

const templateOf = (template: { name: string; hash: string }) => ({ name: template.name, hash: template.hash });

/**
 * Pairs the stage's pending model item tasks that are not paired yet (`pairing.ts`): the rules
 * decide on the offline pool's thread, so this is the asynchronous step before `prepareStage`,
 * which reads the stored pairings. Every path that prepares Stage 2 calls it first — a batch run,
 * `--batch-out` and `--batch-in` — so a file read back is read with the candidates it was written
 * with. A task whose chart has no table is left for `prepareStage` to end.
 */
export async function pairPendingTasks(ctx: AppContext, run: RunRecord, settings: Settings): Promise<void> {
  for (const task of pendingTasks(ctx.db, run.id, 'item')) {
    if (task.pairing !== null || noTableReason(ctx.db, task, 'openai') !== null) continue;
    await pairTask(ctx.db, run, task, settings);
  }
}

/**
 * The stage's pending tasks, prepared: Stage 1 samples its examples as the call-by-call task does
 * (seeded by the task id); Stage 2 offers what each task's stored pairing says, a task paired
 * with none ending declined here, without a request (`pairPendingTasks` first).
 */
export async function prepareStage(ctx: AppContext, run: RunRecord, kind: StageKind, settings: Settings): Promise<StageTask[]> {
  const { db } = ctx;
  const callsByTask = new Map<number, LlmCall[]>();
  for (const call of listLlmCalls(db, { runId: run.id })) {
    if (call.task_id !== null) callsByTask.set(call.task_id, [...(callsByTask.get(call.task_id) ?? []), call]);
  }
  // An item task on a chart without a table, or paired with no proposal, sends no request: it ends with the reason, as a call-by-call task does.
  const tasks = pendingTasks(db, run.id, kind).filter((task) => kind === 'proposals' || (endTaskWithoutTable(db, task, 'openai') === null && !endedUnpaired(db, task)));
  const prepared: StageTask[] = [];
  for (const task of tasks) prepared.push(await prepareTask(task));
  return prepared;

  async function prepareTask(task: TaskRow): Promise<StageTask> {
    const customId = customIdOf(task);
    const calls = callsByTask.get(task.id);
    if (kind === 'proposals') {
      const chartType = task.chart_type;
      if (!chartType) throw new Error(`task ${task.id} has no chart type`);
      const scope = proposalTaskScope(task);
      const examples = sampleExamples(db, chartType, settings, mulberry32(task.id), run.config.weight_to_gaps, scope);
      const wire = STAGE_WIRES.stage1;
      const repairTurns = repairTurnsOf(calls, wire.name);
      return {
        task,
        customId,
        messages: proposalMessages(settings, chartType, examples, scope),
        template: templateOf(stage1Template()),
        wire,
        repairTurns,
        store: (reply, made) => {
          const read = readReply(ctx, reply, wire, repairTurns.length > 0);
          if (read.ok === 'repair') return addRunUsage(db, run.id, read.usage);
          const result = read.ok ? { ok: true as const, texts: read.value, usage: read.usage } : read;
          made.proposals.push(...storeProposalResult(db, run, task, { chartType, scope, examples, settings }, result));
        },
      };
    }
    const { source, proposal } = taskSubject(db, task);
    if (task.pairing === null || task.pairing.kind === 'none') throw new Error(`task ${task.id}: Stage 2 is prepared before its tasks are paired (pairPendingTasks first)`);
    const offer = offerOf(db, task, task.pairing);
    const control = isControlTask(task.id, settings.unchanged_control_share);
    const wire = stage2Wire(source, offer);
    const repairTurns = repairTurnsOf(calls, wire.name);
    const shown = await stage2Images(source, (chartId) => getChartImage(db, chartId)?.png ?? null, visionOptions(settings));
    return {
      task,
      customId,
      messages: itemMessages(source, offer, (chartId) => shown.get(chartId) ?? null),
      images: requestImages(run.model, [...shown.values()]),
      template: templateOf(itemTemplateFor(source)),
      wire,
      repairTurns,
      store: (reply, made) => {
        const read = readReply(ctx, reply, wire, repairTurns.length > 0);
        if (read.ok === 'repair') return addRunUsage(db, run.id, read.usage);
        let result: ItemResult;
        if (!read.ok) result = read;
        else if ('declined' in read.value) result = { ok: true, declined: read.value.declined, usage: read.usage };
        else result = { ok: true, draft: read.value.draft, notes: read.value.notes, proposalId: read.value.proposalId, usage: read.usage };
        const item = storeItemResult(db, run, task, { source, proposal, control, engine: { engine: 'openai', model: run.model } }, result);
        if (item) made.items.push(item);
      },
    };
  }
}

/** A task the server paired with no proposal ends declined, with no request (as `runItemTask` ends it). */
function endedUnpaired(db: AppContext['db'], task: TaskRow): boolean {
  if (task.pairing?.kind !== 'none') return false;
  endTaskUnpaired(db, task, task.pairing.reason);
  return true;
}

/** The run's temperature, as the call-by-call engine takes it (`engine-factory.ts`). */
function temperatureOf(ctx: AppContext, run: RunRecord, settings: Settings): number {
  return run.config.temperature ?? providersFor(settings, ctx.config).generation.temperature;
}

function wireBody(task: StageTask, temperature: number) {
  return structuredBody({ messages: task.messages, wireSchema: task.wire.schema, schemaName: task.wire.name, temperature }, 'json_schema', task.repairTurns);
}

/** The stage's request lines, for the Batch API or `vllm run-batch`: the bodies the call-by-call engine's first request sends. */
export function stageLines(ctx: AppContext, run: RunRecord, tasks: StageTask[], settings: Settings): BatchInputLine[] {
  const temperature = temperatureOf(ctx, run, settings);
  return tasks.map((t) => batchInputLine(t.customId, run.model, wireBody(t, temperature)));
}

/** Says what a stage made, after its transaction committed. */
function announce(ctx: AppContext, made: Made): void {
  announceProposals(ctx, made.proposals);
  for (const item of made.items) ctx.events.emit('item.created', { item });
}

export interface StoredStage {
  stored: number;
  /** Lines that failed or were missing, by custom_id, with the reason (also each task's error). */
  failed: { custom_id: string; error: string }[];
  /** custom_ids in the results that no pending task of the stage has. */
  unknown: string[];
  prompt_tokens: number;
  completion_tokens: number;
}

/**
 * Stores a stage's results: each task's reply through the engine's parsing and storing, in
 * one transaction. `record` makes the result's `llm_calls` row (Batch API results) or none
 * (a file's: null callId and no usage).
 */
export function storeStageResults(
  ctx: AppContext,
  tasks: StageTask[],
  results: Map<string, BatchLineResult>,
  unknown: string[],
  record: (task: StageTask, result: BatchLineResult) => { callId: number | null; usage: EngineUsage },
  /** Written in the same transaction, after the results (the batch marked done). */
  last?: () => void,
): StoredStage {
  const made: Made = { proposals: [], items: [] };
  const summary: StoredStage = { stored: 0, failed: [], unknown, prompt_tokens: 0, completion_tokens: 0 };
  ctx.db.transaction(() => {
    for (const task of tasks) {
      const result: BatchLineResult = results.get(task.customId) ?? { ok: false, error: 'missing from the batch results' };
      const { callId, usage } = record(task, result);
      if (result.ok) {
        summary.prompt_tokens += result.tokens.prompt_tokens;
        summary.completion_tokens += result.tokens.completion_tokens;
      }
      let reply: Reply;
      if (!result.ok) reply = { ok: false, reason: result.error, usage };
      else if (result.refusal) reply = { ok: false, reason: `refused: ${result.refusal}`, usage };
      else reply = { ok: true, content: result.content, finishReason: result.finishReason, usage, callId };
      if (!reply.ok) summary.failed.push({ custom_id: task.customId, error: reply.reason });
      task.store(reply, made);
      summary.stored++;
    }
    last?.();
  }).immediate();
  announce(ctx, made);
  return summary;
}

function targetFor(ctx: AppContext, run: RunRecord, kind: StageKind, settings: Settings, options: Partial<StageBatchOptions>): BatchTarget {
  const { connection } = providersFor(settings, ctx.config).generation;
  if (!connection) throw new Error(`run ${run.id} is a batch run of the openai engine but OPENAI_API_KEY is not set`);
  const template = kind === 'proposals' ? stage1Template() : stage2Template();
  return {
    db: ctx.db,
    api: batchClient(connection, connection.timeoutMs),
    purpose: STAGE_PURPOSE[kind],
    model: run.model,
    template: { name: template.name, hash: template.hash },
    prices: settings.price_table,
    discount: settings.batch_discount,
    runId: run.id,
    pollMs: options.pollMs ?? 0,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  };
}

export interface StageBatchOptions {
  pollMs: number;
  signal: AbortSignal;
  /** After every poll and once the results are stored. */
  onProgress: () => void;
}

/**
 * Sends the stage's pending tasks as one batch — or re-attaches to the stage's batch a stopped
 * process left in flight, so nothing is sent twice — waits for it, and stores its results with
 * batch-priced `llm_calls` rows. False when the signal stopped the wait (the batch goes on there).
 */
export async function runStageBatch(ctx: AppContext, run: RunRecord, kind: StageKind, options: StageBatchOptions): Promise<boolean> {
  const settings = getSettings(ctx.db);
  const target = targetFor(ctx, run, kind, settings, options);
  // A round's invalid replies stay pending for one more batch with the repair turn, so this ends after two rounds at most.
  for (;;) {
    if (kind === 'item') await pairPendingTasks(ctx, run, settings);
    const tasks = await prepareStage(ctx, run, kind, settings);
    let batch = latestRunBatch(ctx.db, run.id);
    if (!batch || ENDED_BATCH_STATES.has(batch.state) || batch.purpose !== target.purpose) {
      if (tasks.length === 0) return true;
      const requests = stageLines(ctx, run, tasks, settings).map((line) => ({ customId: line.custom_id, body: line.body }));
      batch = await sendBatch(target, requests, `run-${run.id}-${target.purpose}.jsonl`);
    }
    const outcome = await awaitBatch(target, batch, tasks.map((t) => t.customId));
    if (!outcome) return false;
    const record = (task: StageTask, result: BatchLineResult) => {
      // The stage's target names one template; a group question's request was rendered from another.
      const call = recordBatchCall({ ...target, template: task.template }, outcome.batch, result, task.task.id, task.images);
      const { prompt_tokens, completion_tokens, cached_tokens = 0 } = call.tokens;
      return { callId: call.callId, usage: { calls: 1, prompt_tokens, completion_tokens, cached_tokens, cost: call.cost } };
    };
    storeStageResults(ctx, tasks, outcome.mapped.results, outcome.mapped.unknown, record, () => finishBatch(target, outcome.batch, outcome.problem));
    options.onProgress();
  }
}

/** A file's results (`vllm run-batch` output): stored with no `llm_calls` rows and no usage. */
export function storeFileResults(ctx: AppContext, tasks: StageTask[], results: Map<string, BatchLineResult>, unknown: string[]): StoredStage {
  return storeStageResults(ctx, tasks, results, unknown, () => ({ callId: null, usage: NO_USAGE }));
}

/** A cancelled batch run's batch in flight is cancelled at the provider too: nothing more is billed. */
export async function cancelRunBatch(ctx: AppContext, run: RunRecord): Promise<void> {
  const batch = latestRunBatch(ctx.db, run.id);
  if (!batch || ENDED_BATCH_STATES.has(batch.state)) return;
  const settings = getSettings(ctx.db);
  await cancelBatch(targetFor(ctx, run, batch.purpose === 'stage1' ? 'proposals' : 'item', settings, {}), batch);
}
