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

const ErrorSchema = z.union([z.string(), z.looseObject({ message: z.string().nullish(), code: z.string().nullish() })]);

const OutputLineSchema = z.looseObject({
  id: z.string().nullish(),
  custom_id: z.string().min(1),
  response: z
    .looseObject({
      status_code: z.number().int(),
      request_id: z.string().nullish(),
      body: z.unknown().nullish(),
    })
    .nullish(),
  error: ErrorSchema.nullish(),
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

const ErrorBodySchema = z.looseObject({ error: ErrorSchema });

export type BatchLineResult =
  | { ok: true; content: string | null; refusal: string | null; finishReason: string | null; tokens: TokenUsage; requestId: string | null }
  | { ok: false; error: string };

function errorText(error: z.infer<typeof ErrorSchema>): string {
  if (typeof error === 'string') return error;
  return [error.code, error.message].filter(Boolean).join(': ') || 'unnamed error';
}

/** What one output line says about its request. */
function readLine(line: z.infer<typeof OutputLineSchema>): BatchLineResult {
  const { response } = line;
  if (!response || response.status_code < 200 || response.status_code > 299) {
    const fromBody = ErrorBodySchema.safeParse(response?.body);
    const reason = line.error ? errorText(line.error) : fromBody.success ? errorText(fromBody.data.error) : 'no response';
    return { ok: false, error: response ? `HTTP ${response.status_code}: ${reason}` : reason };
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
 * `custom_id`. A line that is no result line is an error naming file and line; an id answered
 * twice keeps its successful answer (a request retried inside the batch); an expected id in
 * no file fails as missing, named.
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
      const parsed = OutputLineSchema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`${file.source}: line ${index + 1}: ${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'not a batch result line'}`);
      }
      const id = parsed.data.custom_id;
      if (!wanted.has(id)) {
        unknown.add(id);
        return;
      }
      const result = readLine(parsed.data);
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
