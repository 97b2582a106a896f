import OpenAI from 'openai';
import { redactSecrets } from './redact-secrets';

/**
 * When and how long to wait before retrying a failed model request. The SDK's own retries
 * are off (`maxRetries: 0`) so that every attempt is recorded and the waits are ours to
 * test: exponential backoff with full jitter, honouring the server's `retry-after`.
 */

/** The first retry waits up to this long. */
export const RETRY_BASE_MS = 500;
/** No backoff wait grows beyond this. */
export const RETRY_CAP_MS = 30_000;
/**
 * The longest `retry-after` honoured as given. A server asking for more (e.g. a daily quota
 * reset) gets this long; the next attempt is told again and uses up a retry, so a long
 * outage ends the call with its reason instead of parking a worker for hours.
 */
export const MAX_RETRY_AFTER_MS = 120_000;

/** Waits `ms`, resolving early (never rejecting) when the signal aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
/** A number in [0, 1), as `Math.random`. */
export type Random = () => number;

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Full-jitter backoff (AWS architecture blog, "Exponential Backoff and Jitter"): a uniform
 * wait in [0, min(cap, base · 2^(retry−1))). `retry` counts from 1. Spreading the whole
 * interval keeps concurrent workers that failed together from retrying together.
 */
export function backoffDelay(retry: number, random: Random = Math.random): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The wait a response asks for, in ms: `retry-after-ms` (OpenAI's, fractional), else
 * `retry-after` as seconds or an HTTP date. Null when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers | undefined, now: number = Date.now()): number | null {
  const ms = headers?.get('retry-after-ms');
  if (ms != null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number.parseFloat(ms);
  const value = headers?.get('retry-after')?.trim();
  if (value == null || value === '') return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  // An HTTP date names its weekday and month; bare numbers like "-3" would parse as years.
  if (!/[a-z]/i.test(value)) return null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export type FailureKind = 'rate_limited' | 'server' | 'timeout' | 'connection' | 'cancelled' | 'client' | 'unknown';

export interface ClassifiedFailure {
  kind: FailureKind;
  retryable: boolean;
  /** What went wrong in a few words: `HTTP 500`, `timed out`, `connection failed`. */
  label: string;
  /** The server's or the runtime's message, when there is one. */
  detail: string | null;
  status?: number;
}

/** Statuses worth another try besides 5xx: timeout, conflict (lock contention), rate limit. */
const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/** `label: detail`, for records and non-retried failures. */
export function describeFailure(failure: ClassifiedFailure): string {
  return failure.detail ? `${failure.label}: ${failure.detail}` : failure.label;
}

/** How deep a cause chain is followed: fetch nests the system error two levels down. */
const MAX_CAUSE_DEPTH = 5;

/**
 * The innermost message of an error's cause chain. Node's fetch says only `fetch failed`; the
 * system error under it says what a stop reason needs (`connect ECONNREFUSED 127.0.0.1:8000`,
 * `getaddrinfo ENOTFOUND llm.lan`, `other side closed`).
 */
function rootCause(cause: unknown): string | null {
  let message: string | null = null;
  for (let depth = 0; cause instanceof Error && depth < MAX_CAUSE_DEPTH; depth++) {
    if (cause.message) message = cause.message;
    cause = cause.cause;
  }
  return message;
}

/**
 * Sorts a failed request: 429, 408, 409, 5xx, connection errors and timeouts are retried;
 * other 4xx (bad request, key, permission, unknown model) are not — retrying cannot fix
 * them. An explicit `x-should-retry` header from the server overrides the status. The detail
 * comes without `secrets` (the configured API key) or anything shaped like a key.
 */
export function classifyError(error: unknown, secrets: readonly string[] = []): ClassifiedFailure {
  const failure = classifyUnredacted(error);
  return failure.detail === null ? failure : { ...failure, detail: redactSecrets(failure.detail, secrets) };
}

function classifyUnredacted(error: unknown): ClassifiedFailure {
  if (error instanceof OpenAI.APIUserAbortError) return { kind: 'cancelled', retryable: false, label: 'cancelled', detail: null };
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { kind: 'timeout', retryable: true, label: 'timed out', detail: null };
  if (error instanceof OpenAI.APIConnectionError) {
    return { kind: 'connection', retryable: true, label: 'connection failed', detail: rootCause(error.cause) ?? error.message };
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const status = error.status;
    const kind: FailureKind = status === 429 ? 'rate_limited' : status >= 500 ? 'server' : 'client';
    const override = error.headers?.get('x-should-retry');
    const retryable = override === 'true' ? true : override === 'false' ? false : RETRYABLE_STATUSES.has(status) || status >= 500;
    // The SDK prefixes its message with the status; the label already says it.
    const detail = error.message.replace(/^\d{3}\s+/, '');
    return { kind, retryable, status, label: `HTTP ${status}`, detail };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { kind: 'unknown', retryable: false, label: 'request failed', detail };
}

/**
 * How long to wait before retry number `retry` (from 1) after `error`. With a `retry-after`
 * the wait is max(retry-after, jittered backoff): never sooner than the server asked, and
 * still spread out and growing when its hint is tiny (`retry-after: 0` from a busy proxy).
 */
export function retryDelay(error: unknown, retry: number, random: Random = Math.random, now: number = Date.now()): number {
  const backoff = backoffDelay(retry, random);
  const headers = error instanceof OpenAI.APIError ? error.headers : undefined;
  const asked = parseRetryAfter(headers, now);
  return asked === null ? backoff : Math.max(Math.min(asked, MAX_RETRY_AFTER_MS), backoff);
}

export interface RetryPolicy {
  /** Retries after the first attempt (a connection's `maxRetries`). */
  maxRetries: number;
  /** Left out of failure details (the API key). */
  secrets?: readonly string[];
  sleep?: Sleep;
  random?: Random;
  signal?: AbortSignal;
}

/**
 * A call outside the chat transport (the Batch API's upload, create, retrieve, download,
 * cancel) under the transport's policy: the same classification (what is worth another try),
 * backoff with jitter and `retry-after`, and `maxRetries`. The SDK's own retries are off for
 * these too, so one policy decides every wait. A final failure names the call and its attempts.
 */
export async function retried<T>(what: string, call: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  const sleep = policy.sleep ?? abortableSleep;
  for (let failures = 1; ; failures++) {
    try {
      return await call();
    } catch (error) {
      const failure = classifyError(error, policy.secrets ?? []);
      if (!failure.retryable || failures > policy.maxRetries || policy.signal?.aborted) {
        throw new Error(`${what}: ${describeFailure(failure)} after ${failures} ${failures === 1 ? 'attempt' : 'attempts'}`, { cause: error });
      }
      await sleep(retryDelay(error, failures, policy.random), policy.signal);
    }
  }
}
