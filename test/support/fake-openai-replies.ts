/**
 * Replies the fake OpenAI server can give, and small constructors for them.
 * Pure data: the server in `fake-openai.ts` turns each into an HTTP response.
 */

export type FakeFinishReason = 'stop' | 'length' | 'content_filter';

interface ReplyTiming {
  /** Wait this long before answering; a client timeout shorter than this aborts the call. */
  delayMs?: number;
  /** Extra response headers (e.g. `x-should-retry`). */
  headers?: Record<string, string>;
}

/** An assistant message; `content` is sent verbatim, so it may be malformed JSON on purpose. */
export interface FakeTextReply extends ReplyTiming {
  kind: 'text';
  content: string;
  finishReason?: FakeFinishReason;
}

export interface FakeRefusalReply extends ReplyTiming {
  kind: 'refusal';
  refusal: string;
}

/** A non-2xx response with an OpenAI-style `{ error: { message, type, param, code } }` body. */
export interface FakeErrorReply extends ReplyTiming {
  kind: 'error';
  status: number;
  message: string;
  type: string;
  code: string | null;
}

/** An arbitrary body with a chosen status and content type, e.g. a proxy's HTML page. */
export interface FakeRawReply extends ReplyTiming {
  kind: 'raw';
  status: number;
  contentType: string;
  body: string;
}

/** Never answers; the call ends only when the client gives up or the server closes. */
export interface FakeHangReply {
  kind: 'hang';
}

/** Closes the connection without an answer, as a server that died mid-request or a dropping proxy does. */
export interface FakeDropReply {
  kind: 'drop';
}

export type FakeReply = FakeTextReply | FakeRefusalReply | FakeErrorReply | FakeRawReply | FakeHangReply | FakeDropReply;

type TimingOptions = ReplyTiming;

/** Plain assistant text. */
export function textReply(content: string, options: TimingOptions & { finishReason?: FakeFinishReason } = {}): FakeTextReply {
  return { kind: 'text', content, ...options };
}

/**
 * A structured-output answer: the value serialised as the message content, which is what a
 * model does for `response_format: json_schema` or `json_object`. The value is not checked
 * against the request's schema, so tests can send shapes the client must reject.
 */
export function jsonReply(value: unknown, options: TimingOptions & { finishReason?: FakeFinishReason } = {}): FakeTextReply {
  return { kind: 'text', content: JSON.stringify(value), ...options };
}

/**
 * The value's JSON cut off part-way, as when a model runs out of tokens. `finishReason`
 * defaults to `stop` (a lying endpoint); pass `length` for the honest version.
 */
export function truncatedJsonReply(
  value: unknown,
  options: TimingOptions & { finishReason?: FakeFinishReason; keepChars?: number } = {},
): FakeTextReply {
  const { keepChars, ...rest } = options;
  const json = JSON.stringify(value);
  const cut = keepChars ?? Math.max(1, Math.floor(json.length / 2));
  return { kind: 'text', content: json.slice(0, Math.min(cut, json.length - 1)), ...rest };
}

export function refusalReply(refusal = "I'm sorry, I can't help with that.", options: TimingOptions = {}): FakeRefusalReply {
  return { kind: 'refusal', refusal, ...options };
}

/** HTTP 429 with `retry-after` in seconds (fractions allowed: the SDK reads it with parseFloat). */
export function rateLimitReply(options: TimingOptions & { retryAfterSeconds?: number; message?: string } = {}): FakeErrorReply {
  const { retryAfterSeconds = 1, message, headers, ...rest } = options;
  return {
    kind: 'error',
    status: 429,
    message: message ?? 'Rate limit reached for requests. Please try again later.',
    type: 'requests',
    code: 'rate_limit_exceeded',
    headers: { 'retry-after': String(retryAfterSeconds), ...headers },
    ...rest,
  };
}

export function serverErrorReply(options: TimingOptions & { status?: number; message?: string } = {}): FakeErrorReply {
  const { status = 500, message, ...rest } = options;
  return {
    kind: 'error',
    status,
    message: message ?? 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    code: null,
    ...rest,
  };
}

export function errorReply(
  status: number,
  message: string,
  options: TimingOptions & { type?: string; code?: string | null } = {},
): FakeErrorReply {
  const { type = 'invalid_request_error', code = null, ...rest } = options;
  return { kind: 'error', status, message, type, code, ...rest };
}

/**
 * A body that is not JSON at all. The defaults (200, `application/json`) make the SDK's own
 * `response.json()` throw; use e.g. 502 + `text/html` for a misbehaving proxy.
 */
export function notJsonReply(
  body = '<html><body>upstream exploded</body></html>',
  options: TimingOptions & { status?: number; contentType?: string } = {},
): FakeRawReply {
  const { status = 200, contentType = 'application/json', ...rest } = options;
  return { kind: 'raw', status, contentType, body, ...rest };
}

/** Any reply, answered after `delayMs`. */
export function slowReply<R extends Exclude<FakeReply, FakeHangReply | FakeDropReply>>(delayMs: number, reply: R): R {
  return { ...reply, delayMs };
}

export function hangReply(): FakeHangReply {
  return { kind: 'hang' };
}

export function dropReply(): FakeDropReply {
  return { kind: 'drop' };
}
