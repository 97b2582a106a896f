import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import type { ImageDetail } from '../../shared/settings';
import { describeIssues, type Converted } from '../../shared/generation/model-output';
import { callCost } from './cost';
import type { RequestImages } from './image-tokens';
import { createTransport, type ChatBody, type Fallback, type ModelConnection } from './provider';
import { describeFailure, type Random, type Sleep } from './retry';
import { loadTemplate } from './templates';

/**
 * Structured calls to a model, through the one transport (`provider.ts`: retries with backoff,
 * a `llm_calls` row per request): structured output (or JSON mode where the endpoint lacks
 * it) and one repair retry for invalid output.
 * Model and transport problems never throw; they come back as `ok: false` with a reason.
 */

export interface LlmClientOptions {
  db: Db;
  /** A role's (`providersFor(…).generation`, `.reflection`): fixed when the client is made, so make one per run. */
  connection: ModelConnection;
  engineName?: 'openai';
  /** The mode to start in; default `json_schema`. The judge asks in JSON mode, as CharXiv's grading does. */
  outputMode?: OutputMode;
  sleep?: Sleep;
  random?: Random;
}

export type { Converted };

export interface LlmRequest<W, T> {
  /** What the call is for, e.g. `stage1.proposals`, `stage2.item`. */
  purpose: string;
  template: { name: string; hash: string };
  /**
   * `image`: a data URL the user message shows before its text (the chart, for a vision model);
   * `images`: several, in order (a chart group's charts), shown after `image` and before the text;
   * `imageDetail`: the `detail` each is sent at (left out: the endpoint's default).
   */
  messages: { system: string; user: string; image?: string; images?: readonly string[]; imageDetail?: ImageDetail };
  /** The shape the model fills (strict-compatible: no optionals, no records). */
  wireSchema: z.ZodType<W>;
  schemaName: string;
  /** Wire → domain; its failure reason is shown to the model in the repair request. */
  convert: (wire: W) => Converted<T>;
  model: string;
  temperature: number;
  runId?: number;
  taskId?: number;
  /** The chart the call is about (an extraction's), so a failed call can be traced to it. */
  chartId?: number;
  /** The images `messages` carries, as sent (`requestImages`): each request's row records their estimate. */
  images?: RequestImages;
  signal?: AbortSignal;
}

export interface LlmUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Of `prompt_tokens`, those the endpoint served from its prompt cache. */
  cached_tokens: number;
  cost: number;
  /** False when the model is not in the price table: `cost` is then 0, not "free". */
  priced: boolean;
}

/**
 * Why a call failed: `invalid` output after the repair retry, `refused` by the model,
 * `transport` after the retries ran out, `rejected` by the endpoint without retry (400, 401,
 * 403, 404 — a configuration problem a run may want to stop on), `cancelled` by the signal.
 */
export type LlmFailureKind = 'invalid' | 'refused' | 'transport' | 'rejected' | 'cancelled';

export type LlmResult<T> =
  | { ok: true; value: T; usage: LlmUsage; attempts: number }
  | { ok: false; kind: LlmFailureKind; reason: string; usage: LlmUsage; attempts: number };

/** `json_schema`: strict structured output; `json_object`: JSON mode with the schema in the prompt. */
export type OutputMode = 'json_schema' | 'json_object';

export interface LlmClient {
  complete<W, T>(request: LlmRequest<W, T>): Promise<LlmResult<T>>;
  /** The mode the next call will use; it switches once if the endpoint rejects `json_schema`. */
  outputMode(): OutputMode;
}

/** The follow-up user turn after invalid output, from `prompts/repair-json.md` (it names JSON, as JSON mode requires). */
export function repairMessage(error: string, schemaName: string): string {
  return loadTemplate('repair-json').render({ error, schema_name: schemaName }).user;
}

const NO_TOKENS = { prompt_tokens: 0, completion_tokens: 0 };

export type Validation<T> = { ok: true; value: T } | { ok: false; kind: string; error: string };

/** Models in JSON mode often wrap the object in a Markdown fence; the object inside is what counts. */
function stripFence(text: string): string {
  const match = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  return match?.[1] ?? text;
}

/**
 * Reads a reply as the client does (the Markdown fence, JSON, the wire schema, the conversion):
 * exported for replies that came another way, a batch's results.
 */
export function validateReply<W, T>(raw: string | null, finishReason: string | null | undefined, request: Pick<LlmRequest<W, T>, 'wireSchema' | 'convert'>): Validation<T> {
  if (finishReason === 'length') return { ok: false, kind: 'truncated', error: 'the reply was cut off at the token limit' };
  if (raw === null || raw.trim() === '') return { ok: false, kind: 'empty', error: 'the reply had no content' };
  let json: unknown;
  try {
    json = JSON.parse(stripFence(raw));
  } catch (error) {
    return { ok: false, kind: 'invalid JSON', error: `not valid JSON: ${(error as Error).message}` };
  }
  const parsed = request.wireSchema.safeParse(json);
  if (!parsed.success) return { ok: false, kind: 'schema-invalid', error: describeIssues(parsed.error) };
  try {
    const converted = request.convert(parsed.data);
    return converted.ok ? converted : { ok: false, kind: 'schema-invalid', error: converted.reason };
  } catch (error) {
    // A converter that throws is a bug, but the output it choked on is still the model's.
    return { ok: false, kind: 'schema-invalid', error: `conversion failed: ${(error as Error).message}` };
  }
}

/** A 400/422 about `response_format`/`json_schema`: the endpoint has no structured output. */
function rejectsJsonSchema(error: unknown): boolean {
  return error instanceof OpenAI.APIError && (error.status === 400 || error.status === 422) && /response_format|json_schema/i.test(error.message);
}

const formats = new WeakMap<object, Map<string, ResponseFormatJSONSchema>>();

/** `zodResponseFormat` converts the schema each time; the result depends only on (schema, name). */
function responseFormat(schema: z.ZodType, name: string): ResponseFormatJSONSchema {
  const byName = formats.get(schema) ?? new Map<string, ResponseFormatJSONSchema>();
  formats.set(schema, byName);
  let format = byName.get(name);
  if (!format) {
    // Only the wire format is kept: we parse ourselves, after recording the raw output.
    const { type, json_schema } = zodResponseFormat(schema, name);
    format = { type, json_schema };
    byName.set(name, format);
  }
  return format;
}

function jsonModeSystem(system: string, format: ResponseFormatJSONSchema): string {
  const schema = JSON.stringify(format.json_schema.schema);
  return `${system}\n\nReply with a single JSON object (\`${format.json_schema.name}\`) that matches this JSON Schema:\n${schema}`;
}

/**
 * The body a structured call sends in `mode`, after any repair turns: what `complete` sends,
 * and what a batch line for the same request carries.
 */
export function structuredBody<W, T>(
  request: Pick<LlmRequest<W, T>, 'messages' | 'wireSchema' | 'schemaName' | 'temperature'>,
  mode: OutputMode,
  repairTurns: ChatCompletionMessageParam[] = [],
): ChatBody {
  const format = responseFormat(request.wireSchema, request.schemaName);
  return {
    temperature: request.temperature,
    messages: [
      { role: 'system', content: mode === 'json_schema' ? request.messages.system : jsonModeSystem(request.messages.system, format) },
      {
        role: 'user',
        content: imageUrls(request.messages).length === 0
          ? request.messages.user
          : [...imageUrls(request.messages).map((url) => ({ type: 'image_url' as const, image_url: imagePart(url, request.messages.imageDetail) })), { type: 'text', text: request.messages.user }],
      },
      ...repairTurns,
    ],
    response_format: mode === 'json_schema' ? format : { type: 'json_object' },
  };
}

const imagePart = (url: string, detail: ImageDetail | undefined) => (detail === undefined ? { url } : { url, detail });

function imageUrls(messages: { image?: string; images?: readonly string[] }): string[] {
  return [...(messages.image === undefined ? [] : [messages.image]), ...(messages.images ?? [])];
}

export function createLlmClient(options: LlmClientOptions): LlmClient {
  const { db, connection } = options;
  const transport = createTransport({
    db,
    connection,
    engine: options.engineName ?? 'openai',
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.random ? { random: options.random } : {}),
  });
  let mode: OutputMode = options.outputMode ?? 'json_schema';

  async function complete<W, T>(request: LlmRequest<W, T>): Promise<LlmResult<T>> {
    const repairTurns: ChatCompletionMessageParam[] = [];
    const usage: LlmUsage = { prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, cost: 0, priced: callCost(request.model, NO_TOKENS, connection.prices).priced };
    const call = transport.call({
      purpose: request.purpose,
      model: request.model,
      template: request.template,
      runId: request.runId,
      taskId: request.taskId,
      chartId: request.chartId,
      images: request.images,
      signal: request.signal,
    });
    let repaired = false;
    /** The mode of this call's latest request: another call may have switched `mode` while it was out. */
    let sentMode: OutputMode = mode;
    // Recorded with the failed attempt, which then does not use up a retry.
    const toJsonMode: Fallback = {
      when: (error) => sentMode === 'json_schema' && rejectsJsonSchema(error),
      note: 'switching to JSON mode',
      apply: () => (mode = 'json_object'),
    };
    const fail = (kind: LlmFailureKind, reason: string): LlmResult<T> => ({ ok: false, kind, reason, usage, attempts: call.attempts });
    const body = (): ChatBody => {
      sentMode = mode;
      return structuredBody(request, sentMode, repairTurns);
    };

    for (;;) {
      // Each send has its own retries: the repair request is not cut short by the first one's.
      const reply = await call.send({ body, fallback: toJsonMode, validateLater: true });
      if (!reply.ok) {
        if (reply.kind === 'cancelled') return fail('cancelled', 'cancelled');
        const { failure, failures } = reply;
        if (reply.kind === 'rejected') return fail(failure.kind === 'client' ? 'rejected' : 'transport', describeFailure(failure));
        const limit = failure.kind === 'timeout' ? ` (no response within ${connection.timeoutMs} ms)` : '';
        const detail = failure.kind === 'timeout' || !failure.detail ? '' : `: ${failure.detail}`;
        return fail('transport', `${failure.label} after ${failures} ${failures === 1 ? 'attempt' : 'attempts'}${limit}${detail}`);
      }
      usage.prompt_tokens += reply.tokens.prompt_tokens;
      usage.completion_tokens += reply.tokens.completion_tokens;
      usage.cached_tokens += reply.tokens.cached_tokens;
      usage.cost += reply.cost;
      if (reply.refusal) return fail('refused', `refused: ${reply.refusal}`);
      const raw = reply.content;
      const checked = validateReply(raw, reply.completion.choices[0]?.finish_reason, request);
      if (checked.ok) {
        call.settle(reply.callId, 'ok', null);
        return { ok: true, value: checked.value, usage, attempts: call.attempts };
      }
      call.settle(reply.callId, 'invalid', `${checked.kind}: ${checked.error}`);
      if (repaired) return fail('invalid', `${checked.kind} after repair: ${checked.error}`);
      repaired = true;
      repairTurns.push({ role: 'assistant', content: raw ?? '' }, { role: 'user', content: repairMessage(checked.error, request.schemaName) });
    }
  }

  return { complete, outputMode: () => mode };
}
