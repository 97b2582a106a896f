import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { Db } from '../../db/database';
import type { ModelPrice } from '../../shared/settings';
import { callCost, type TokenUsage } from './cost';
import { imageColumns, type RequestImages } from './image-tokens';
import { recordLlmCall, settleLlmCall, type LlmCallOutcome, type LlmCallRecord } from './llm-call-queries';
import { withRequestSignal } from './request-signal';
import { abortableSleep, classifyError, describeFailure, retryDelay, type ClassifiedFailure, type Random, type Sleep } from './retry';

/**
 * The one transport to an OpenAI-compatible endpoint, for every role (generation, reflection,
 * evaluation, judging): the SDK with its own retries off, our one retry loop (backoff with
 * jitter, `retry-after` honoured, the abort signal followed), and a `llm_calls` row for every
 * attempt — so what each purpose costs is in one table. What a reply means (structured
 * output, repair, answer extraction) is the caller's; `providersFor` says which model a role asks.
 */

/** Where the models are: `OPENAI_API_KEY` and `OPENAI_BASE_URL`. */
export interface Endpoint {
  apiKey: string;
  baseURL?: string;
}

/** An endpoint and how one role's requests to it behave. */
export interface ModelConnection extends Endpoint {
  /** Per attempt: the SDK's timeout, fixed when the transport is made. */
  timeoutMs: number;
  /** Tries after the first failed one of a request; a response resets the count. */
  maxRetries: number;
  prices: Record<string, ModelPrice>;
}

export interface TransportOptions {
  db: Db;
  connection: ModelConnection;
  /** The `engine` column of the rows. */
  engine?: string;
  sleep?: Sleep;
  random?: Random;
}

/** What every row of one logical call shares. */
export interface CallLabel {
  /** What the call is for: `stage1`, `stage2`, `reflection`, `evaluation`, `judging` (the LLM judge, server/eval/judge-grader.ts), `chart_type`. */
  purpose: string;
  model: string;
  template: { name: string; hash: string };
  runId?: number | undefined;
  taskId?: number | undefined;
  evalRunId?: number | undefined;
  /** The chart the call is about, when it is about one (a vision model asked for its type). */
  chartId?: number | undefined;
  /** The images each request carries, as sent (`requestImages`): recorded with their estimated tokens and cost. */
  images?: RequestImages | undefined;
  signal?: AbortSignal | undefined;
}

export type ChatBody = Omit<ChatCompletionCreateParamsNonStreaming, 'model'>;

/**
 * The request a body becomes for `model`: what one call sends and what a batch's JSONL line
 * carries as its `body`, built in this one place so the two can never differ.
 */
export function chatRequest(model: string, body: ChatBody): ChatCompletionCreateParamsNonStreaming {
  return { ...body, model };
}

/**
 * An error that is no failure of the endpoint but a capability it lacks (no `json_schema`):
 * recorded with `note`, then `apply` changes what `body` builds and the request is sent again
 * at once, without using up a retry.
 */
export interface Fallback {
  when: (error: unknown) => boolean;
  note: string;
  apply: () => void;
}

export interface SendOptions {
  /** Built per attempt, so a fallback can change it. */
  body: () => ChatBody;
  fallback?: Fallback;
  /**
   * True: the reply's row is written as `invalid`, 'not yet validated' — the raw output kept
   * whatever parsing makes of it — and the caller settles it with `settle`. False: `ok`.
   */
  validateLater?: boolean;
}

export interface Reply {
  ok: true;
  completion: ChatCompletion;
  content: string | null;
  /** The model's refusal, or the content filter's stop; its row is `refused`. */
  refusal: string | null;
  tokens: Required<TokenUsage>;
  cost: number;
  /** The reply's `llm_calls` row. */
  callId: number;
}

/**
 * `cancelled` by the signal; `rejected`: not retryable (a 4xx a retry cannot fix, or an error
 * that is no HTTP answer); `exhausted`: the retries ran out. `failures` counts this request's tries.
 */
export type SendFailure = { ok: false; kind: 'cancelled' } | { ok: false; kind: 'rejected' | 'exhausted'; failure: ClassifiedFailure; failures: number };

/**
 * A completion's usage as the workbench counts it: `cached_tokens` is the part of the prompt the
 * endpoint served from its prompt cache (OpenAI's `prompt_tokens_details`; 0 where an endpoint
 * does not report it), which the price table may price lower.
 */
export function tokensOf(usage: ChatCompletion['usage']): Required<TokenUsage> {
  return {
    prompt_tokens: usage?.prompt_tokens ?? 0,
    completion_tokens: usage?.completion_tokens ?? 0,
    cached_tokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
  };
}

/** One logical call: its requests (retries, repair, fallback) are rows numbered 1, 2, … by `attempts`. */
export interface ProviderCall {
  send(options: SendOptions): Promise<Reply | SendFailure>;
  /** Sets the outcome of a reply sent with `validateLater`. */
  settle(callId: number, outcome: LlmCallOutcome, error: string | null): void;
  /** Requests made so far, failed ones included. */
  readonly attempts: number;
}

export interface Transport {
  call(label: CallLabel): ProviderCall;
}

export function createTransport(options: TransportOptions): Transport {
  const { db, connection } = options;
  const engine = options.engine ?? 'openai';
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  // maxRetries 0: every retry is ours, so each attempt is recorded and its wait is testable.
  const openai = new OpenAI({ apiKey: connection.apiKey, baseURL: connection.baseURL, maxRetries: 0, timeout: connection.timeoutMs });

  function call(label: CallLabel): ProviderCall {
    let attempts = 0;
    const imagePrice = (tokens: number) => callCost(label.model, { prompt_tokens: tokens, completion_tokens: 0 }, connection.prices);
    const record = (fields: Pick<LlmCallRecord, 'raw_output' | 'latency_ms' | 'outcome' | 'error'> & Partial<LlmCallRecord>) =>
      recordLlmCall(db, {
        run_id: label.runId ?? null,
        task_id: label.taskId ?? null,
        eval_run_id: label.evalRunId ?? null,
        chart_id: label.chartId ?? null,
        purpose: label.purpose,
        engine,
        model: label.model,
        template: label.template.name,
        template_hash: label.template.hash,
        attempt: attempts,
        prompt_tokens: 0,
        completion_tokens: 0,
        cost: 0,
        ...imageColumns(label.images, fields.outcome !== 'error', imagePrice),
        ...fields,
      });

    async function send({ body, fallback, validateLater = false }: SendOptions): Promise<Reply | SendFailure> {
      const { signal } = label;
      let failures = 0;
      for (;;) {
        if (signal?.aborted) return { ok: false, kind: 'cancelled' };
        attempts += 1;
        const started = performance.now();
        let completion: ChatCompletion;
        try {
          completion = await withRequestSignal(signal, (requestSignal) =>
            openai.chat.completions.create(chatRequest(label.model, body()), requestSignal ? { signal: requestSignal } : {}),
          );
        } catch (error) {
          const latency_ms = performance.now() - started;
          const failure = classifyError(error, [connection.apiKey]);
          if (fallback?.when(error)) {
            record({ raw_output: null, latency_ms, outcome: 'error', error: `${describeFailure(failure)} (${fallback.note})` });
            fallback.apply();
            continue;
          }
          const aborted = failure.kind === 'cancelled' || signal?.aborted === true;
          record({ raw_output: null, latency_ms, outcome: 'error', error: aborted ? 'cancelled' : describeFailure(failure) });
          if (aborted) return { ok: false, kind: 'cancelled' };
          failures += 1;
          if (!failure.retryable) return { ok: false, kind: 'rejected', failure, failures };
          if (failures > connection.maxRetries) return { ok: false, kind: 'exhausted', failure, failures };
          await sleep(retryDelay(error, failures, random), signal);
          continue;
        }
        const latency_ms = performance.now() - started;
        const tokens = tokensOf(completion.usage);
        const { cost } = callCost(label.model, tokens, connection.prices);
        const choice = completion.choices[0];
        const refusal = choice?.message.refusal ?? (choice?.finish_reason === 'content_filter' ? 'stopped by the content filter' : null);
        const content = choice?.message.content ?? null;
        const callId = refusal
          ? record({ raw_output: content ?? refusal, latency_ms, ...tokens, cost, outcome: 'refused', error: refusal })
          : validateLater
            ? record({ raw_output: content, latency_ms, ...tokens, cost, outcome: 'invalid', error: 'not yet validated' })
            : record({ raw_output: content, latency_ms, ...tokens, cost, outcome: 'ok', error: null });
        return { ok: true, completion, content, refusal, tokens, cost, callId };
      }
    }

    return {
      send,
      settle: (callId, outcome, error) => settleLlmCall(db, callId, outcome, error),
      get attempts() {
        return attempts;
      },
    };
  }

  return { call };
}
