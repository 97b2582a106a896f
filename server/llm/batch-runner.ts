import type { Batch } from 'openai/resources/batches';
import type { Db } from '../../db/database';
import type { ModelPrice } from '../../shared/settings';
import { batchProblem, cancelRemoteBatch, downloadBatch, FINISHED_STATUSES, retrieveBatch, submitBatch, waitForBatch, type BatchApi } from './batch-api';
import { batchInputLine, mapBatchResults, type BatchLineResult, type MappedResults } from './batch-lines';
import { endBatch, getBatch, insertBatch, updateBatchPoll, type BatchRecord, type BatchState } from './batch-queries';
import { batchCallCost, type TokenUsage } from './cost';
import { imageColumns, type RequestImages } from './image-tokens';
import { recordLlmCall } from './llm-call-queries';
import type { ChatBody } from './provider';
import type { Sleep } from './retry';

/**
 * A batch from its requests to its results, for any purpose: send (upload, create, store the
 * batch at once), wait (poll, storing each poll's counts so a page can show them), download
 * and match the results by `custom_id`. A caller that stops or dies mid-way re-attaches to
 * the stored batch with `awaitBatch`; nothing is sent twice. Each result becomes its
 * `llm_calls` row through `recordBatchCall`, at the batch price, in the caller's transaction
 * with whatever the caller stores of it — so a result is counted once even if a download is repeated.
 */

export interface BatchTarget {
  db: Db;
  api: BatchApi;
  /** The `llm_calls` purpose of its requests (`evaluation`, `stage2`). */
  purpose: string;
  model: string;
  template: { name: string; hash: string };
  prices: Record<string, ModelPrice>;
  /** The `batch_discount` setting: the share of the price table's price a batch request costs. */
  discount: number;
  evalRunId?: number;
  runId?: number;
  /** Time between polls (grows while nothing changes: `waitForBatch`). */
  pollMs: number;
  signal?: AbortSignal;
  sleep?: Sleep;
  onProgress?: (batch: BatchRecord) => void;
}

export interface BatchRequest {
  customId: string;
  body: ChatBody;
}

/** Uploads the requests as one JSONL file, creates the batch and stores it; the caller then `awaitBatch`es it. */
export async function sendBatch(target: BatchTarget, requests: BatchRequest[], filename: string): Promise<BatchRecord> {
  const lines = requests.map((request) => batchInputLine(request.customId, target.model, request.body));
  const metadata: Record<string, string> = { purpose: target.purpose };
  if (target.evalRunId !== undefined) metadata.eval_run_id = String(target.evalRunId);
  if (target.runId !== undefined) metadata.run_id = String(target.runId);
  const batch = await submitBatch(target.api, lines, { filename, metadata });
  const id = insertBatch(target.db, {
    purpose: target.purpose,
    model: target.model,
    remote_id: batch.id,
    input_file_id: batch.input_file_id,
    remote_status: batch.status,
    requests_total: batch.request_counts?.total ?? lines.length,
    eval_run_id: target.evalRunId ?? null,
    run_id: target.runId ?? null,
  });
  const record = mustGet(target.db, id);
  target.onProgress?.(record);
  return record;
}

function mustGet(db: Db, id: number): BatchRecord {
  const record = getBatch(db, id);
  if (!record) throw new Error(`llm_batches ${id} is gone`);
  return record;
}

function stateOf(batch: Batch): BatchState {
  if (FINISHED_STATUSES.has(batch.status)) return 'downloading';
  return batch.status === 'validating' ? 'submitted' : 'in_progress';
}

function storePoll(target: BatchTarget, record: BatchRecord, batch: Batch): void {
  const counts = batch.request_counts;
  updateBatchPoll(target.db, record.id, {
    state: stateOf(batch),
    remote_status: batch.status,
    total: counts?.total ?? record.requests_total,
    completed: counts?.completed ?? 0,
    failed: counts?.failed ?? 0,
    output_file_id: batch.output_file_id ?? null,
    error_file_id: batch.error_file_id ?? null,
  });
  target.onProgress?.(mustGet(target.db, record.id));
}

export interface BatchOutcome {
  batch: BatchRecord;
  mapped: MappedResults;
  /** Why some or all results are missing (the batch failed, expired or was cancelled there); null when it completed. */
  problem: string | null;
}

/**
 * Waits for a stored batch to finish at the provider and reads its results for the `expected`
 * ids (every one gets a result: missing ones fail, named). Null when the signal aborted the
 * wait: the batch goes on there, and a later call re-attaches to it.
 */
export async function awaitBatch(target: BatchTarget, record: BatchRecord, expected: Iterable<string>): Promise<BatchOutcome | null> {
  let finished: Batch | null;
  if (record.state === 'submitted' || record.state === 'in_progress') {
    finished = await waitForBatch(target.api, record.remote_id, {
      intervalMs: target.pollMs,
      onPoll: (batch) => storePoll(target, record, batch),
      ...(target.signal ? { signal: target.signal } : {}),
      ...(target.sleep ? { sleep: target.sleep } : {}),
    });
    if (!finished) return null;
  } else {
    // Finished there before this process stopped: one look for its file ids, then the download again.
    finished = await retrieveBatch(target.api, record.remote_id);
    storePoll(target, record, finished);
  }
  const files = await downloadBatch(target.api, finished);
  return { batch: mustGet(target.db, record.id), mapped: mapBatchResults(expected, files), problem: batchProblem(finished) };
}

export interface RecordedBatchCall {
  callId: number;
  content: string | null;
  tokens: TokenUsage;
  cost: number;
}

/**
 * One result's `llm_calls` row: marked with its batch, costed at the batch price. The whole
 * batch took hours, no request alone, so its latency is recorded as 0. `taskId`: the
 * generation task the request was for; `images`: what its request carried, when this process built it.
 */
export function recordBatchCall(target: BatchTarget, batch: BatchRecord, result: BatchLineResult, taskId: number | null = null, images?: RequestImages): RecordedBatchCall {
  const imagePrice = (tokens: number) => batchCallCost(target.model, { prompt_tokens: tokens, completion_tokens: 0 }, target.prices, target.discount);
  const base = {
    run_id: target.runId ?? null,
    task_id: taskId,
    eval_run_id: target.evalRunId ?? null,
    purpose: target.purpose,
    engine: 'openai',
    model: target.model,
    template: target.template.name,
    template_hash: target.template.hash,
    attempt: 1,
    latency_ms: 0,
    batch_id: batch.id,
    ...imageColumns(images, result.ok, imagePrice),
  };
  if (!result.ok) {
    const callId = recordLlmCall(target.db, { ...base, raw_output: null, prompt_tokens: 0, completion_tokens: 0, cost: 0, outcome: 'error', error: result.error });
    return { callId, content: null, tokens: { prompt_tokens: 0, completion_tokens: 0 }, cost: 0 };
  }
  const { cost } = batchCallCost(target.model, result.tokens, target.prices, target.discount);
  const callId = recordLlmCall(target.db, {
    ...base,
    raw_output: result.content ?? result.refusal,
    ...result.tokens,
    cost,
    outcome: result.refusal ? 'refused' : 'ok',
    error: result.refusal,
  });
  return { callId, content: result.content, tokens: result.tokens, cost };
}

/** Every result stored: the batch is done here. */
export function finishBatch(target: BatchTarget, batch: BatchRecord, problem: string | null): void {
  endBatch(target.db, batch.id, 'done', problem);
  target.onProgress?.(mustGet(target.db, batch.id));
}

/** Cancels the batch at the provider (best effort: it may have finished) and ends it here. */
export async function cancelBatch(target: Pick<BatchTarget, 'db' | 'api'>, batch: BatchRecord): Promise<void> {
  try {
    await cancelRemoteBatch(target.api, batch.remote_id);
  } finally {
    endBatch(target.db, batch.id, 'cancelled', 'cancelled with its run');
  }
}
