import { questionFromFiles } from '../eval/eval-question';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { extractAnswer } from '../../shared/eval/answer-extraction';
import type { Db } from '../../db/database';
import type { Config } from '../config';
import { batchClient, DEFAULT_POLL_MS, retrieveBatch } from '../llm/batch-api';
import { batchInputLine, mapBatchResults, toJsonl, type BatchLineResult } from '../llm/batch-lines';
import type { TokenUsage } from '../llm/cost';
import { getBatchByRemoteId, insertBatch, type BatchRecord } from '../llm/batch-queries';
import { awaitBatch, finishBatch, recordBatchCall, sendBatch, type BatchTarget } from '../llm/batch-runner';
import { batchCallCost } from '../llm/cost';
import { providersFor } from '../llm/model-roles';
import { getSettings } from '../settings/settings-queries';
import type { Settings } from '../../shared/settings';
import { EvalDatasetSchema, PredictionSchema, readJsonFile, writePredictions, type EvalCommandOptions, type EvalDataset, type EvalItem, type Prediction } from './eval-command';
import { EVAL_TEMPLATE, evalChatBody, prepareEvalQuestion, sentImages } from '../eval/model-asker';
import { requestImages, type RequestImages } from '../llm/image-tokens';
import { visionOptions, type VisionImageOptions } from '../llm/vision-image';

/**
 * `hqa eval` in batch mode. `--batch`: the questions not yet answered go as one OpenAI Batch
 * API batch, polled until it ends; its id is kept beside the predictions file
 * (`<out>.batch.json`) from the moment it exists, so a rerun after a kill re-attaches to it
 * instead of sending a second. `--batch-out FILE`: the same request lines written to FILE,
 * for `vllm run-batch`. `--batch-in FILE`: a batch output file (OpenAI's or vLLM's) read into
 * predictions exactly as the normal path writes them. The custom_id of each line is the item's export id.
 */

const SidecarSchema = z.object({ remote_id: z.string(), model: z.string(), ids: z.array(z.string()) });
type Sidecar = z.infer<typeof SidecarSchema>;

const sidecarPath = (out: string) => `${out}.batch.json`;

interface Inputs {
  dataset: EvalDataset;
  done: Map<string, Prediction>;
  todo: EvalItem[];
  withImage: boolean;
}

function readInputs(options: EvalCommandOptions): Inputs {
  const withImage = options.image !== false;
  // --batch-in reads answers, not charts: it needs no images.
  if (withImage && !options.images && options.batchIn === undefined) throw new Error('--images: give the folder of chart images (hqa export --images DIR), or --no-image for the control');
  const dataset = readJsonFile(options.dataset, EvalDatasetSchema);
  if (withImage && options.images && options.batchIn === undefined) {
    const folder = options.images;
    for (const item of dataset.items) {
      const missing = item.images.find((name) => !existsSync(join(folder, name)));
      if (missing !== undefined) throw new Error(`--images: ${join(folder, missing)} is missing (item ${item.id})`);
    }
  }
  const done = new Map<string, Prediction>();
  if (existsSync(options.out)) for (const p of readJsonFile(options.out, z.array(PredictionSchema))) done.set(p.id, p);
  return { dataset, done, withImage, todo: dataset.items.filter((item) => !done.has(item.id)) };
}

/** An item's request line, its images scaled by the vision settings as a call on its own scales them; `images`: what it carries, estimated. */
async function requestOf(item: EvalItem, options: EvalCommandOptions, withImage: boolean, vision: VisionImageOptions) {
  const text = options.original ? item.original.query : item.question;
  const prepared = await prepareEvalQuestion(questionFromFiles(text, withImage ? options.images : undefined, item.images), vision);
  return { customId: item.id, body: evalChatBody(prepared), images: requestImages(options.model, sentImages(prepared)) };
}

async function requestsOf(items: EvalItem[], options: EvalCommandOptions, withImage: boolean, vision: VisionImageOptions) {
  const requests = [];
  for (const item of items) requests.push(await requestOf(item, options, withImage, vision));
  return requests;
}

/** A result as the normal path stores an answer: the raw reply, and the answer extracted from it. */
function predictionOf(id: string, result: Extract<BatchLineResult, { ok: true }>): Prediction {
  const raw = result.content ?? '';
  return { id, prediction: extractAnswer(raw), raw };
}

interface Totals {
  asked: number;
  failed: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

interface ItemError {
  id: string;
  error: string;
}

/** What a run collected for its report: the totals and the items that got no answer. */
interface Tally {
  totals: Totals;
  errors: ItemError[];
}

const emptyTally = (): Tally => ({ totals: { asked: 0, failed: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0 }, errors: [] });

/** One batch result into the predictions and the tally, counted as the normal path counts an answer; `cost` prices its tokens. */
function takeResult(inputs: Inputs, tally: Tally, id: string, result: BatchLineResult, cost: (tokens: TokenUsage) => number): void {
  const { totals } = tally;
  if (!result.ok) {
    totals.failed++;
    tally.errors.push({ id, error: result.error });
    return;
  }
  inputs.done.set(id, predictionOf(id, result));
  totals.asked++;
  totals.prompt_tokens += result.tokens.prompt_tokens;
  totals.completion_tokens += result.tokens.completion_tokens;
  totals.cost += cost(result.tokens);
}

/** A result's cost at the batch price of the settings' price table. */
function batchPrice(model: string, settings: Pick<Settings, 'price_table' | 'batch_discount'>): (tokens: TokenUsage) => number {
  return (tokens) => batchCallCost(model, tokens, settings.price_table, settings.batch_discount).cost;
}

function report(options: EvalCommandOptions, inputs: Inputs, skipped: number, { totals, errors }: Tally, extra: Record<string, unknown> = {}): number {
  const cost = Math.round(totals.cost * 1e6) / 1e6;
  const summary = { out: options.out, model: options.model, items: inputs.dataset.items.length, skipped, ...totals, cost, errors, ...extra };
  if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    for (const e of errors) process.stderr.write(`error: item ${e.id}: ${e.error}\n`);
    process.stdout.write(
      `answered ${totals.asked}, skipped ${skipped} already answered, ${totals.failed} failed; ${totals.prompt_tokens + totals.completion_tokens} tokens, $${cost.toFixed(4)} at the batch price; wrote ${options.out}\n`,
    );
  }
  return errors.length > 0 ? 2 : 0;
}

export async function evaluateInBatch(db: Db, config: Config, options: EvalCommandOptions): Promise<number> {
  const modes = [options.batch === true, options.batchOut !== undefined, options.batchIn !== undefined].filter(Boolean).length;
  if (modes > 1) throw new Error('--batch, --batch-out and --batch-in: give one of them');
  const inputs = readInputs(options);
  if (options.batchOut !== undefined) return writeBatchFile(options, options.batchOut, inputs, visionOptions(getSettings(db)));
  if (options.batchIn !== undefined) return readBatchFile(db, options, options.batchIn, inputs);
  return runBatch(db, config, options, inputs);
}

async function writeBatchFile(options: EvalCommandOptions, file: string, inputs: Inputs, vision: VisionImageOptions): Promise<number> {
  const lines = (await requestsOf(inputs.todo, options, inputs.withImage, vision)).map((request) => batchInputLine(request.customId, options.model, request.body));
  writeFileSync(file, toJsonl(lines));
  const next = `hqa eval --dataset ${options.dataset} --model ${options.model} --out ${options.out} --batch-in OUT`;
  if (options.json) process.stdout.write(`${JSON.stringify({ batch_out: file, requests: lines.length, skipped: inputs.done.size, next })}\n`);
  else process.stdout.write(`wrote ${lines.length} requests to ${file} (${inputs.done.size} already answered); run them with\n  vllm run-batch -i ${file} -o OUT --model ${options.model}\nthen read the answers back with\n  ${next}\n`);
  return 0;
}

function readBatchFile(db: Db, options: EvalCommandOptions, file: string, inputs: Inputs): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`--batch-in: ${file}: ${(error as Error).message}`, { cause: error });
  }
  const todoIds = new Set(inputs.todo.map((item) => item.id));
  // Every dataset id is expected, so a line for one answered before is no "unknown id".
  const mapped = mapBatchResults(
    inputs.dataset.items.map((item) => item.id),
    [{ source: file, text }],
  );
  const settings = getSettings(db);
  const tally = emptyTally();
  for (const [id, result] of mapped.results) {
    if (todoIds.has(id)) takeResult(inputs, tally, id, result, batchPrice(options.model, settings));
  }
  for (const id of mapped.unknown) tally.errors.push({ id, error: `in ${file} but not in the dataset ${options.dataset}` });
  writePredictions(options.out, inputs.dataset, inputs.done);
  return report(options, inputs, inputs.dataset.items.length - todoIds.size, tally, { unknown: mapped.unknown });
}

function readSidecar(out: string): Sidecar | null {
  const file = sidecarPath(out);
  return existsSync(file) ? readJsonFile(file, SidecarSchema) : null;
}

function writeSidecar(out: string, sidecar: Sidecar): void {
  const file = sidecarPath(out);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(sidecar)}\n`);
  renameSync(`${file}.tmp`, file);
}

async function runBatch(db: Db, config: Config, options: EvalCommandOptions, inputs: Inputs): Promise<number> {
  const settings = getSettings(db);
  const { connection } = providersFor(settings, config).evaluation;
  if (!connection) throw new Error('OPENAI_API_KEY is not set: --batch sends the questions to the OpenAI Batch API (OPENAI_BASE_URL); --batch-out writes them for vllm run-batch instead');
  const pollMs = Number(options.batchPoll ?? DEFAULT_POLL_MS);
  if (!Number.isInteger(pollMs) || pollMs < 1) throw new Error('--batch-poll: a whole number of milliseconds, at least 1');
  let lastShown = '';
  const target: BatchTarget = {
    db,
    api: batchClient(connection, connection.timeoutMs),
    purpose: 'evaluation',
    model: options.model,
    template: EVAL_TEMPLATE,
    prices: settings.price_table,
    discount: settings.batch_discount,
    pollMs,
    onProgress: (batch) => {
      const line = `batch ${batch.remote_id}: ${batch.state.replace('_', ' ')} ${batch.requests_completed + batch.requests_failed} of ${batch.requests_total} (${batch.requests_failed} failed)`;
      if (options.json || line === lastShown) return;
      lastShown = line;
      process.stderr.write(`${line}\n`);
    },
  };

  let sidecar = readSidecar(options.out);
  if (sidecar && sidecar.model !== options.model) {
    throw new Error(`${sidecarPath(options.out)}: batch ${sidecar.remote_id} asks ${sidecar.model}, not ${options.model}; rerun with --model ${sidecar.model} to collect it, or delete the file`);
  }
  let record: BatchRecord | null = null;
  /** The images of the requests this process sent; a re-attached batch's were built by another, and are not recorded. */
  const imagesOf = new Map<string, RequestImages>();
  if (sidecar) {
    // Re-attach: the batch is the database's if this workbench sent it, else known from the sidecar alone.
    record = getBatchByRemoteId(db, sidecar.remote_id);
    if (!record) {
      const batch = await retrieveBatch(target.api, sidecar.remote_id);
      const id = insertBatch(db, { purpose: 'evaluation', model: sidecar.model, remote_id: batch.id, input_file_id: batch.input_file_id, remote_status: batch.status, requests_total: sidecar.ids.length });
      record = getBatchByRemoteId(db, batch.id);
      if (!record) throw new Error(`llm_batches ${id} is gone`);
    }
    if (!options.json) process.stderr.write(`re-attaching to batch ${sidecar.remote_id} (${sidecarPath(options.out)})\n`);
  } else {
    if (inputs.todo.length === 0) return report(options, inputs, inputs.dataset.items.length, emptyTally());
    const requests = await requestsOf(inputs.todo, options, inputs.withImage, visionOptions(settings));
    for (const request of requests) imagesOf.set(request.customId, request.images);
    record = await sendBatch(target, requests, 'hqa-eval.jsonl');
    sidecar = { remote_id: record.remote_id, model: options.model, ids: requests.map((request) => request.customId) };
    writeSidecar(options.out, sidecar);
  }

  const outcome = await awaitBatch(target, record, sidecar.ids);
  if (!outcome) throw new Error(`batch ${record.remote_id}: waiting was interrupted; rerun the same command to re-attach`);
  const tally = emptyTally();
  const price = batchPrice(options.model, settings);
  const { batch } = outcome;
  // The calls are recorded once: a rerun after the database had them (and before the file was written) only writes the file.
  const recordCalls = batch.state !== 'done';
  db.transaction(() => {
    for (const id of sidecar.ids) {
      const result = outcome.mapped.results.get(id) ?? { ok: false as const, error: 'missing from the batch results' };
      const call = recordCalls ? recordBatchCall(target, batch, result, null, imagesOf.get(id)) : null;
      takeResult(inputs, tally, id, result, (tokens) => call?.cost ?? price(tokens));
    }
    if (recordCalls) finishBatch(target, batch, outcome.problem);
  })();
  for (const id of outcome.mapped.unknown) tally.errors.push({ id, error: `in batch ${batch.remote_id}'s results but never asked` });
  writePredictions(options.out, inputs.dataset, inputs.done);
  rmSync(sidecarPath(options.out), { force: true });
  const skipped = inputs.dataset.items.length - sidecar.ids.length;
  return report(options, inputs, skipped, tally, { batch_id: batch.remote_id, ...(outcome.problem ? { problem: outcome.problem } : {}) });
}
