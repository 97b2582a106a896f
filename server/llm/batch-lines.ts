import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { chatRequest, type ChatBody } from './provider';
import type { TokenUsage } from './cost';

/**
 * The batch file formats, shared by the OpenAI Batch API and vLLM's offline runner
 * (`vllm run-batch -i in.jsonl -o out.jsonl`): one request per input line
 * (`{ custom_id, method, url, body }`), one result per output line
 * (`{ id, custom_id, response: { status_code, request_id, body }, error }`), in any order — so
 * results are matched back by `custom_id`, never by position.
 */

export const BATCH_URL = '/v1/chat/completions';

export interface BatchInputLine {
  custom_id: string;
  method: 'POST';
  url: typeof BATCH_URL;
  body: ChatCompletionCreateParamsNonStreaming;
}

/** One request's line: its body is exactly what the call on its own sends (`chatRequest`). */
export function batchInputLine(customId: string, model: string, body: ChatBody): BatchInputLine {
  return { custom_id: customId, method: 'POST', url: BATCH_URL, body: chatRequest(model, body) };
}

export function toJsonl(lines: Iterable<unknown>): string {
  let text = '';
  for (const line of lines) text += `${JSON.stringify(line)}\n`;
  return text;
}

/**
 * The fields that name a failure, wherever a writer puts them: OpenAI's error-file `error`
 * (`{ code, message }`, `code` a string such as `batch_expired`), the `error` of OpenAI's HTTP
 * error body and of vLLM's `ErrorResponse` (`ErrorInfo`: `message, type, param, code`, `code` an
 * integer, the HTTP status), and vLLM's older flat `ErrorResponse` (`object: "error"`, the same
 * fields at the top).
 */
const ErrorInfoSchema = z.looseObject({
  message: z.string().nullish(),
  type: z.string().nullish(),
  code: z.union([z.string(), z.number()]).nullish(),
});
type ErrorInfo = z.infer<typeof ErrorInfoSchema>;

/** `{ error: … }`: OpenAI's HTTP error body, and current vLLM's `ErrorResponse` (run_batch.py puts it in the line's `error` as is). */
const WrappedErrorSchema = z.looseObject({ error: z.union([z.string(), ErrorInfoSchema]) });

/** What every line must have to be matched at all; the rest is read leniently, so one odd line fails alone. */
const LineIdSchema = z.looseObject({ custom_id: z.string().min(1) });

/** A result line as OpenAI and vLLM (`BatchRequestOutput`) write it; its `id` is not read. */
const OutputLineSchema = z.looseObject({
  custom_id: z.string().min(1),
  response: z
    .looseObject({
      status_code: z.number().int(),
      request_id: z.string().nullish(),
      body: z.unknown().nullish(),
    })
    .nullish(),
  error: z.unknown().nullish(),
});

/** The part of a chat completion a batch result is read for (OpenAI's and vLLM's bodies both have it). */
const CompletionBodySchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({ content: z.string().nullish(), refusal: z.string().nullish() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z
    .looseObject({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
      // OpenAI's batch bodies say how much of the prompt its cache served; vLLM's may not.
      prompt_tokens_details: z.looseObject({ cached_tokens: z.number().int().nonnegative().nullish() }).nullish(),
    })
    .nullish(),
});

export type BatchLineResult =
  | { ok: true; content: string | null; refusal: string | null; finishReason: string | null; tokens: TokenUsage; requestId: string | null }
  | { ok: false; error: string };

/** An error in no known shape is quoted, cut to this many characters. */
const QUOTED_ERROR_CHARS = 200;

/**
 * A line's `error`, or a failed response's `body`, as a string (vLLM's `error=str(e)` when the
 * request never ran) or an error's fields, unwrapped; null when it is neither.
 */
function readError(value: unknown): string | ErrorInfo | null {
  if (typeof value === 'string') return value;
  const wrapped = WrappedErrorSchema.safeParse(value);
  if (wrapped.success) return wrapped.data.error;
  const flat = ErrorInfoSchema.safeParse(value);
  return flat.success ? flat.data : null;
}

/** vLLM's integer `code` is the HTTP status: the status of a line that has no response. */
function statusOf(error: unknown): number | null {
  const info = readError(error);
  return typeof info === 'object' && info !== null && typeof info.code === 'number' && Number.isInteger(info.code) ? info.code : null;
}

/**
 * Why a request failed: the error's code when there is one, then its message; named by its
 * type when it has neither. An integer code equal to `status` is left out (the caller says the
 * status once). Null when `value` says nothing.
 */
function errorReason(value: unknown, status: number | null): string | null {
  if (value === null || value === undefined) return null;
  const info = readError(value);
  if (info === null) return `an error in no known shape: ${JSON.stringify(value).slice(0, QUOTED_ERROR_CHARS)}`;
  if (typeof info === 'string') return info.trim() === '' ? null : info;
  const code = info.code === null || info.code === undefined || info.code === '' || info.code === status ? null : String(info.code);
  const named = [code, info.message].filter((part) => typeof part === 'string' && part !== '').join(': ');
  return named || info.type || null;
}

/** What one output line says about its request. */
function readLine(line: z.infer<typeof OutputLineSchema>): BatchLineResult {
  const { response } = line;
  if (!response || response.status_code < 200 || response.status_code > 299) {
    const status = response?.status_code ?? statusOf(line.error);
    const reason = errorReason(line.error, status) ?? errorReason(response?.body, status) ?? (response ? 'no reason given' : 'no response');
    return { ok: false, error: status === null ? reason : `HTTP ${status}: ${reason}` };
  }
  const body = CompletionBodySchema.safeParse(response.body);
  if (!body.success) return { ok: false, error: `HTTP ${response.status_code}: the response body is no chat completion (${body.error.issues[0]?.path.join('.') || 'body'})` };
  const choice = body.data.choices[0];
  const finishReason = choice?.finish_reason ?? null;
  const refusal = choice?.message.refusal ?? (finishReason === 'content_filter' ? 'stopped by the content filter' : null);
  const usage = body.data.usage;
  return {
    ok: true,
    content: choice?.message.content ?? null,
    refusal,
    finishReason,
    tokens: { prompt_tokens: usage?.prompt_tokens ?? 0, completion_tokens: usage?.completion_tokens ?? 0, cached_tokens: usage?.prompt_tokens_details?.cached_tokens ?? 0 },
    requestId: response.request_id ?? null,
  };
}

/** A batch output or error file's text, named for the messages (a path, or `output file file-…`). */
export interface BatchFile {
  source: string;
  text: string;
}

export interface MappedResults {
  /** Every expected id: its result, or a failure saying why there is none. */
  results: Map<string, BatchLineResult>;
  /** Ids in the files that were never asked: a file of another run, or a changed dataset. */
  unknown: string[];
  /** Expected ids found in no file. */
  missing: string[];
}

/**
 * Reads batch output and error files (JSONL) and matches every line to the `expected` ids by
 * `custom_id`. A line with a `custom_id` never stops the reading: whatever error shape it has
 * (OpenAI's, current or older vLLM's) its request fails with the reason, and a line in no known
 * shape fails its request naming file and line. A line that is not JSON or has no `custom_id`
 * names no request, and is an error naming file and line. An id answered twice keeps its
 * successful answer (a request retried inside the batch); an expected id in no file fails as
 * missing, named.
 */
export function mapBatchResults(expected: Iterable<string>, files: BatchFile[]): MappedResults {
  const wanted = new Set(expected);
  const results = new Map<string, BatchLineResult>();
  const unknown = new Set<string>();
  for (const file of files) {
    const lines = file.text.split('\n');
    lines.forEach((text, index) => {
      if (text.trim() === '') return;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new Error(`${file.source}: line ${index + 1}: not JSON (${(error as Error).message})`, { cause: error });
      }
      const named = LineIdSchema.safeParse(json);
      if (!named.success) {
        const issue = named.error.issues[0];
        throw new Error(`${file.source}: line ${index + 1}: ${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'not a batch result line'}`);
      }
      const id = named.data.custom_id;
      if (!wanted.has(id)) {
        unknown.add(id);
        return;
      }
      const parsed = OutputLineSchema.safeParse(json);
      const issue = parsed.error?.issues[0];
      const result: BatchLineResult = parsed.success
        ? readLine(parsed.data)
        : { ok: false, error: `${file.source}: line ${index + 1} is no batch result line (${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'invalid'})` };
      if (results.get(id)?.ok && !result.ok) return;
      results.set(id, result);
    });
  }
  const missing: string[] = [];
  const sources = files.map((file) => file.source).join(', ') || 'no file';
  for (const id of wanted) {
    if (results.has(id)) continue;
    missing.push(id);
    results.set(id, { ok: false, error: `missing from the batch results (${sources})` });
  }
  return { results, unknown: [...unknown], missing };
}
