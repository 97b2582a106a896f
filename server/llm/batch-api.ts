import OpenAI, { toFile } from 'openai';
import type { Batch } from 'openai/resources/batches';
import { BATCH_URL, toJsonl, type BatchFile, type BatchInputLine } from './batch-lines';
import type { Endpoint } from './provider';
import { abortableSleep, classifyError, describeFailure, retried, type RetryPolicy, type Sleep } from './retry';

/**
 * The OpenAI Batch API through the openai SDK: upload the JSONL (`files.create`, purpose
 * `batch`), create the batch, poll it, download its output and error files. The requests
 * inside a batch are the provider's to retry; the few calls around it follow the transport's
 * retry policy (`retried`), the SDK's own retries off, so one policy decides every wait.
 */

/** A provider's batch window: the only one OpenAI offers. */
export const COMPLETION_WINDOW = '24h';
/** Default time between polls; a batch takes minutes to hours. */
export const DEFAULT_POLL_MS = 30_000;
/** A quiet batch is polled less and less often, up to this many times the interval. */
const MAX_BACKOFF_FACTOR = 10;
const BACKOFF_GROWTH = 1.5;
/** Polls in a row that may fail (network, 5xx) before waiting is given up; the batch lives on at the provider. */
const MAX_POLL_FAILURES = 10;

/** How a batch ends there: its output (if any) is then downloaded. */
export const FINISHED_STATUSES: ReadonlySet<Batch['status']> = new Set(['completed', 'failed', 'expired', 'cancelled']);

/** The SDK for the Batch API's calls and the policy they are retried under. */
export interface BatchApi {
  openai: OpenAI;
  policy: RetryPolicy;
}

/** Retries as a chat call of the connection would (`maxRetries`, default the SDK's 2). */
const DEFAULT_BATCH_RETRIES = 2;

export function batchClient(endpoint: Endpoint & { maxRetries?: number }, timeoutMs: number, options: { sleep?: Sleep } = {}): BatchApi {
  return {
    openai: new OpenAI({ apiKey: endpoint.apiKey, baseURL: endpoint.baseURL, timeout: timeoutMs, maxRetries: 0 }),
    policy: { maxRetries: endpoint.maxRetries ?? DEFAULT_BATCH_RETRIES, secrets: [endpoint.apiKey], ...(options.sleep ? { sleep: options.sleep } : {}) },
  };
}

/** Uploads the lines and creates the batch; the caller stores its id at once. */
export async function submitBatch(api: BatchApi, lines: BatchInputLine[], options: { filename: string; metadata?: Record<string, string> }): Promise<Batch> {
  if (lines.length === 0) throw new Error('a batch needs at least one request');
  const body = Buffer.from(toJsonl(lines));
  const file = await retried(`uploading ${options.filename}`, async () => api.openai.files.create({ file: await toFile(body, options.filename, { type: 'application/jsonl' }), purpose: 'batch' }), api.policy);
  return retried(
    `creating the batch of ${options.filename}`,
    () => api.openai.batches.create({ input_file_id: file.id, endpoint: BATCH_URL, completion_window: COMPLETION_WINDOW, ...(options.metadata ? { metadata: options.metadata } : {}) }),
    api.policy,
  );
}

/** One look at a batch there (its status and file ids). */
export function retrieveBatch(api: BatchApi, batchId: string): Promise<Batch> {
  return retried(`reading batch ${batchId}`, () => api.openai.batches.retrieve(batchId), api.policy);
}

/** Asks the provider to cancel a batch. */
export async function cancelRemoteBatch(api: BatchApi, batchId: string): Promise<void> {
  await retried(`cancelling batch ${batchId}`, () => api.openai.batches.cancel(batchId), api.policy);
}

export interface PollOptions {
  intervalMs: number;
  /** Called after every poll, with the batch as the provider reports it. */
  onPoll?: (batch: Batch) => void;
  signal?: AbortSignal;
  sleep?: Sleep;
}

function progressKey(batch: Batch): string {
  const counts = batch.request_counts;
  return `${batch.status}:${counts?.completed ?? 0}:${counts?.failed ?? 0}`;
}

/**
 * Polls until the batch has finished there (completed, failed, expired or cancelled), waiting
 * `intervalMs` after a poll that saw progress and longer (×1.5, up to ×10) after each that saw
 * none. A poll that fails is tried again after the same backoff, up to MAX_POLL_FAILURES in a
 * row. Returns null when `signal` aborts: the batch goes on at the provider, to be re-attached.
 */
export async function waitForBatch(api: BatchApi, batchId: string, options: PollOptions): Promise<Batch | null> {
  const { openai } = api;
  const sleep = options.sleep ?? abortableSleep;
  let delay = options.intervalMs;
  let last = '';
  let failures = 0;
  for (;;) {
    if (options.signal?.aborted) return null;
    let batch: Batch;
    try {
      batch = await openai.batches.retrieve(batchId, options.signal ? { signal: options.signal } : {});
      failures = 0;
    } catch (error) {
      if (options.signal?.aborted) return null;
      const failure = classifyError(error, [openai.apiKey ?? '']);
      if (!failure.retryable || ++failures >= MAX_POLL_FAILURES) throw new Error(`polling batch ${batchId}: ${describeFailure(failure)}`, { cause: error });
      delay = Math.min(delay * BACKOFF_GROWTH, options.intervalMs * MAX_BACKOFF_FACTOR);
      await sleep(delay, options.signal);
      continue;
    }
    options.onPoll?.(batch);
    if (FINISHED_STATUSES.has(batch.status)) return batch;
    const key = progressKey(batch);
    delay = key === last ? Math.min(delay * BACKOFF_GROWTH, options.intervalMs * MAX_BACKOFF_FACTOR) : options.intervalMs;
    last = key;
    await sleep(delay, options.signal);
  }
}

/** The finished batch's output and error files, each named for messages by its file id. */
export async function downloadBatch(api: BatchApi, batch: Batch): Promise<BatchFile[]> {
  const files: BatchFile[] = [];
  for (const [kind, id] of [
    ['output', batch.output_file_id],
    ['error', batch.error_file_id],
  ] as const) {
    if (!id) continue;
    const text = await retried(`downloading the ${kind} file ${id} of batch ${batch.id}`, async () => (await api.openai.files.content(id)).text(), api.policy);
    files.push({ source: `batch ${batch.id} ${kind} file ${id}`, text });
  }
  return files;
}

/** Why a finished batch has (partly) no results, from its own errors, for the run's error line. */
export function batchProblem(batch: Batch): string | null {
  if (batch.status === 'completed') return null;
  const errors = batch.errors?.data?.map((e) => [e.line ? `line ${e.line}` : null, e.code, e.message].filter(Boolean).join(': ')) ?? [];
  return `batch ${batch.id} ${batch.status}${errors.length > 0 ? `: ${errors.slice(0, 3).join('; ')}` : ''}`;
}
