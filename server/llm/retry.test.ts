import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import {
  abortableSleep,
  backoffDelay,
  classifyError,
  describeFailure,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  RETRY_BASE_MS,
  RETRY_CAP_MS,
  retryDelay,
} from './retry';

const ALMOST_ONE = 0.999_999;

function apiError(status: number, headers: Record<string, string> = {}): InstanceType<typeof OpenAI.APIError> {
  return OpenAI.APIError.generate(status, { error: { message: `failure ${status}` } }, undefined, new Headers(headers));
}

describe('backoffDelay (full jitter)', () => {
  it('spans [0, base · 2^(retry−1)) for early retries', () => {
    expect(backoffDelay(1, () => 0)).toBe(0);
    expect(backoffDelay(1, () => ALMOST_ONE)).toBe(RETRY_BASE_MS - 1);
    expect(backoffDelay(3, () => ALMOST_ONE)).toBe(4 * RETRY_BASE_MS - 1);
    expect(backoffDelay(3, () => 0.5)).toBe(2 * RETRY_BASE_MS);
  });

  it('never exceeds the cap, however many retries', () => {
    for (const retry of [7, 10, 30, 1000]) {
      expect(backoffDelay(retry, () => ALMOST_ONE)).toBeLessThan(RETRY_CAP_MS);
    }
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads seconds, fractional seconds and milliseconds', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0.25' }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), now)).toBe(1500);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now)).toBe(30_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }), now)).toBe(0);
  });

  it('returns null when absent or unreadable', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter(new Headers(), now)).toBeNull();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(parseRetryAfter(new Headers({ 'retry-after': '-3' }), now)).toBeNull();
  });
});

describe('retryDelay', () => {
  it('waits at least what retry-after asks, even when the jitter draws less', () => {
    expect(retryDelay(apiError(429, { 'retry-after': '3' }), 1, () => 0)).toBe(3000);
  });

  it('keeps the backoff when the server asks for less than it', () => {
    expect(retryDelay(apiError(503, { 'retry-after': '0' }), 4, () => 0.5)).toBe(4 * RETRY_BASE_MS);
  });

  it('clamps an enormous retry-after', () => {
    expect(retryDelay(apiError(429, { 'retry-after': '86400' }), 1, () => 0)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('falls back to backoff without a header', () => {
    expect(retryDelay(apiError(500), 2, () => 0.5)).toBe(RETRY_BASE_MS);
  });
});

describe('classifyError', () => {
  it.each([429, 500, 502, 503, 408])('retries HTTP %i', (status) => {
    expect(classifyError(apiError(status)).retryable).toBe(true);
  });

  it.each([400, 401, 403, 404, 422])('does not retry HTTP %i', (status) => {
    expect(classifyError(apiError(status))).toMatchObject({ retryable: false, kind: 'client', status });
  });

  it('retries connection errors and timeouts but not an abort', () => {
    expect(classifyError(new OpenAI.APIConnectionTimeoutError())).toMatchObject({ kind: 'timeout', retryable: true });
    expect(classifyError(new OpenAI.APIConnectionError({ message: 'ECONNRESET' }))).toMatchObject({ kind: 'connection', retryable: true });
    expect(classifyError(new OpenAI.APIUserAbortError())).toMatchObject({ kind: 'cancelled', retryable: false });
  });

  it('names the system error under fetch failed, where the connection failed', () => {
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:8000');
    const error = new OpenAI.APIConnectionError({ cause: new TypeError('fetch failed', { cause: refused }) });
    expect(describeFailure(classifyError(error))).toBe('connection failed: connect ECONNREFUSED 127.0.0.1:8000');
  });

  it('lets x-should-retry override the status', () => {
    expect(classifyError(apiError(500, { 'x-should-retry': 'false' })).retryable).toBe(false);
    expect(classifyError(apiError(400, { 'x-should-retry': 'true' })).retryable).toBe(true);
  });

  it('describes the status and the server message once', () => {
    expect(describeFailure(classifyError(apiError(500)))).toBe('HTTP 500: failure 500');
  });
});

describe('abortableSleep', () => {
  it('resolves early when the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = abortableSleep(10_000, controller.signal);
    controller.abort();
    await sleeping;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
