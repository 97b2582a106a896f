import OpenAI from 'openai';
import { withRequestSignal } from './request-signal';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { describeIssues, type Converted } from '../../shared/generation/model-output';
import type { Settings } from '../../shared/settings';
import { callCost } from './cost';
import { recordLlmCall, settleLlmCall, type LlmCallRecord } from './llm-call-queries';
import { abortableSleep, classifyError, describeFailure, retryDelay, type Random, type Sleep } from './retry';
import { loadTemplate } from './templates';

/**
 * The one way the workbench talks to a model: the official SDK against any OpenAI-compatible
 * endpoint, with structured output (or JSON mode where the endpoint lacks it), one repair
 * retry for invalid output, our own retries with backoff, and a `llm_calls` row per request.
 * Model and transport problems never throw; they come back as `ok: false` with a reason.
 */

export interface LlmClientOptions {
  db: Db;
  apiKey: string;
  baseURL?: string;
  /** A snapshot: the timeout is fixed when the client is made, so make one per run. */
  settings: Settings;
  engineName?: 'openai';
  sleep?: Sleep;
  random?: Random;
}

export type { Converted };

export interface LlmRequest<W, T> {
  /** What the call is for, e.g. `stage1.proposals`, `stage2.item`. */
  purpose: string;
  template: { name: string; hash: string };
  messages: { system: string; user: string };
  /** The shape the model fills (strict-compatible: no optionals, no records). */
  wireSchema: z.ZodType<W>;
  schemaName: string;
  /** Wire → domain; its failure reason is shown to the model in the repair request. */
  convert: (wire: W) => Converted<T>;
  model: string;
  temperature: number;
  runId?: number;
  taskId?: number;
  signal?: AbortSignal;
}

export interface LlmUsage {
  prompt_tokens: number;
  completion_tokens: number;
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

type Validation<T> = { ok: true; value: T } | { ok: false; kind: string; error: string };

/** Models in JSON mode often wrap the object in a Markdown fence; the object inside is what counts. */
function stripFence(text: string): string {
  const match = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  return match?.[1] ?? text;
}

function validate<W, T>(raw: string | null, finishReason: string | undefined, request: LlmRequest<W, T>): Validation<T> {
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

export function createLlmClient(options: LlmClientOptions): LlmClient {
  const { db, settings } = options;
  const engine = options.engineName ?? 'openai';
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  // maxRetries 0: every retry is ours, so each attempt is recorded and its wait is testable.
  const openai = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0, timeout: settings.request_timeout_ms });
  let mode: OutputMode = 'json_schema';

  async function complete<W, T>(request: LlmRequest<W, T>): Promise<LlmResult<T>> {
    const format = responseFormat(request.wireSchema, request.schemaName);
    const repairTurns: ChatCompletionMessageParam[] = [];
    const usage: LlmUsage = { prompt_tokens: 0, completion_tokens: 0, cost: 0, priced: callCost(request.model, NO_TOKENS, settings.price_table).priced };
    let attempts = 0;
    /** Failed tries of the current request; a response resets it, so the repair request gets its own retries. */
    let failures = 0;
    let repaired = false;

    const fail = (kind: LlmFailureKind, reason: string): LlmResult<T> => ({ ok: false, kind, reason, usage, attempts });
    const record = (fields: Pick<LlmCallRecord, 'raw_output' | 'latency_ms' | 'outcome' | 'error'> & Partial<LlmCallRecord>) =>
      recordLlmCall(db, {
        run_id: request.runId ?? null,
        task_id: request.taskId ?? null,
        purpose: request.purpose,
        engine,
        model: request.model,
        template: request.template.name,
        template_hash: request.template.hash,
        attempt: attempts,
        prompt_tokens: 0,
        completion_tokens: 0,
        cost: 0,
        ...fields,
      });

    for (;;) {
      if (request.signal?.aborted) return fail('cancelled', 'cancelled');
      attempts += 1;
      const callMode = mode;
      const system = callMode === 'json_schema' ? request.messages.system : jsonModeSystem(request.messages.system, format);
      const started = performance.now();
      let completion: ChatCompletion;
      try {
        completion = await withRequestSignal(request.signal, (signal) =>
          openai.chat.completions.create(
            {
              model: request.model,
              temperature: request.temperature,
              messages: [{ role: 'system', content: system }, { role: 'user', content: request.messages.user }, ...repairTurns],
              response_format: callMode === 'json_schema' ? format : { type: 'json_object' },
            },
            { signal },
          ),
        );
      } catch (error) {
        const latency_ms = performance.now() - started;
        const failure = classifyError(error);
        if (callMode === 'json_schema' && rejectsJsonSchema(error)) {
          mode = 'json_object';
          record({ raw_output: null, latency_ms, outcome: 'error', error: `${describeFailure(failure)} (switching to JSON mode)` });
          continue;
        }
        const aborted = failure.kind === 'cancelled' || request.signal?.aborted === true;
        record({ raw_output: null, latency_ms, outcome: 'error', error: aborted ? 'cancelled' : describeFailure(failure) });
        if (aborted) return fail('cancelled', 'cancelled');
        failures += 1;
        if (!failure.retryable) return fail(failure.kind === 'client' ? 'rejected' : 'transport', describeFailure(failure));
        if (failures > settings.max_retries) {
          const limit = failure.kind === 'timeout' ? ` (no response within ${settings.request_timeout_ms} ms)` : '';
          const detail = failure.kind === 'timeout' || !failure.detail ? '' : `: ${failure.detail}`;
          return fail('transport', `${failure.label} after ${failures} ${failures === 1 ? 'attempt' : 'attempts'}${limit}${detail}`);
        }
        await sleep(retryDelay(error, failures, random), request.signal);
        continue;
      }
      const latency_ms = performance.now() - started;
      failures = 0;

      const tokens = { prompt_tokens: completion.usage?.prompt_tokens ?? 0, completion_tokens: completion.usage?.completion_tokens ?? 0 };
      const { cost } = callCost(request.model, tokens, settings.price_table);
      usage.prompt_tokens += tokens.prompt_tokens;
      usage.completion_tokens += tokens.completion_tokens;
      usage.cost += cost;
      const choice = completion.choices[0];
      const refusal = choice?.message.refusal ?? (choice?.finish_reason === 'content_filter' ? 'stopped by the content filter' : null);
      const raw = choice?.message.content ?? null;
      if (refusal) {
        record({ raw_output: raw ?? refusal, latency_ms, ...tokens, cost, outcome: 'refused', error: refusal });
        return fail('refused', `refused: ${refusal}`);
      }
      // Recorded before parsing: the raw output is kept whatever validation makes of it.
      const id = record({ raw_output: raw, latency_ms, ...tokens, cost, outcome: 'invalid', error: 'not yet validated' });
      const checked = validate(raw, choice?.finish_reason, request);
      if (checked.ok) {
        settleLlmCall(db, id, 'ok', null);
        return { ok: true, value: checked.value, usage, attempts };
      }
      settleLlmCall(db, id, 'invalid', `${checked.kind}: ${checked.error}`);
      if (repaired) return fail('invalid', `${checked.kind} after repair: ${checked.error}`);
      repaired = true;
      repairTurns.push({ role: 'assistant', content: raw ?? '' }, { role: 'user', content: repairMessage(checked.error, request.schemaName) });
    }
  }

  return { complete, outputMode: () => mode };
}
