import type { ServerResponse } from 'node:http';
import type { FakeDropReply, FakeFinishReason, FakeHangReply, FakeRefusalReply, FakeReply, FakeTextReply } from './fake-openai-replies';
import { estimateTokens, promptTokens, type FakeChatRequest } from './fake-openai-request';

/** How the fake OpenAI server answers: JSON bodies, OpenAI-style errors, and chat completions, whole or streamed. */

/** Characters per SSE content delta when streaming. */
const STREAM_CHUNK_CHARS = 16;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function errorBody(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** What a completion says, shared by the whole response and the streamed one. */
interface Completion {
  envelope: { id: string; created: number; model: string; system_fingerprint: string };
  content: string | null;
  refusal: string | null;
  finishReason: FakeFinishReason;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details?: { cached_tokens: number } };
}

/**
 * Sends `reply` to a chat completion; `replyNumber` counts the replies sent and names the request
 * and completion ids. `cachedTokens`: the prompt tokens a prompt cache served (`prompt_tokens_details`), null for a fake without one.
 */
export function sendReply(res: ServerResponse, chat: FakeChatRequest, reply: Exclude<FakeReply, FakeHangReply | FakeDropReply>, replyNumber: number, cachedTokens: number | null = null): void {
  const headers = { 'x-request-id': `req_fake_${replyNumber}`, ...reply.headers };

  if (reply.kind === 'error') {
    sendJson(res, reply.status, errorBody(reply.message, reply.type, reply.code), headers);
    return;
  }
  if (reply.kind === 'raw') {
    res.writeHead(reply.status, { 'content-type': reply.contentType, ...headers });
    res.end(reply.body);
    return;
  }

  const completion = completionOf(chat, reply, replyNumber, cachedTokens);
  if (!chat.stream) {
    sendJson(res, 200, completionBody(completion), headers);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.end(streamBody(chat, completion));
}

/**
 * The status and JSON body `sendReply` would send for a non-streamed reply: a batch line's
 * response (fake-openai-batches.ts). A raw reply's body is kept as its text.
 */
export function replyBody(chat: FakeChatRequest, reply: Exclude<FakeReply, FakeHangReply | FakeDropReply>, replyNumber: number, cachedTokens: number | null = null): { status: number; body: unknown } {
  if (reply.kind === 'error') return { status: reply.status, body: errorBody(reply.message, reply.type, reply.code) };
  if (reply.kind === 'raw') return { status: reply.status, body: reply.body };
  return { status: 200, body: completionBody(completionOf(chat, reply, replyNumber, cachedTokens)) };
}

function completionOf(chat: FakeChatRequest, reply: FakeTextReply | FakeRefusalReply, replyNumber: number, cachedTokens: number | null): Completion {
  const content = reply.kind === 'text' ? reply.content : null;
  const refusal = reply.kind === 'refusal' ? reply.refusal : null;
  const finishReason: FakeFinishReason = reply.kind === 'text' ? (reply.finishReason ?? 'stop') : 'stop';
  const prompt = promptTokens(chat);
  const completion = estimateTokens(content ?? refusal ?? '');
  const usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(cachedTokens === null ? {} : { prompt_tokens_details: { cached_tokens: cachedTokens } }),
  };
  const envelope = {
    id: `chatcmpl-fake-${replyNumber}`,
    created: Math.floor(Date.now() / 1000),
    model: chat.model,
    system_fingerprint: 'fp_fake',
  };
  return { envelope, content, refusal, finishReason, usage };
}

function completionBody({ envelope, content, refusal, finishReason, usage }: Completion) {
  return {
    ...envelope,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal, annotations: [] },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage,
  };
}

/** The completion as server-sent events: a role chunk, text deltas, the finish, usage if asked, `[DONE]`. */
function streamBody(chat: FakeChatRequest, { envelope, content, refusal, finishReason, usage }: Completion): string {
  const includeUsage = chat.stream_options?.include_usage === true;
  const chunk = (choices: unknown[], extra: object = {}) => ({
    ...envelope,
    object: 'chat.completion.chunk',
    choices,
    ...(includeUsage ? { usage: null } : {}),
    ...extra,
  });
  const delta = (d: object, finish: FakeFinishReason | null = null) => ({
    index: 0,
    delta: d,
    logprobs: null,
    finish_reason: finish,
  });
  const field = content !== null ? 'content' : 'refusal';
  const text = content ?? refusal ?? '';
  const events: unknown[] = [chunk([delta({ role: 'assistant', [field]: '' })])];
  for (let i = 0; i < text.length; i += STREAM_CHUNK_CHARS) {
    events.push(chunk([delta({ [field]: text.slice(i, i + STREAM_CHUNK_CHARS) })]));
  }
  events.push(chunk([delta({}, finishReason)]));
  if (includeUsage) events.push(chunk([], { usage }));
  return events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('') + 'data: [DONE]\n\n';
}
