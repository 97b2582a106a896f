/**
 * A local OpenAI-compatible HTTP server for tests. There is no network in CI, so every LLM
 * test points the real `openai` SDK at this server and scripts what the "model" says.
 *
 * ```ts
 * const fake = await startFakeOpenAI();
 * const client = new OpenAI({ baseURL: fake.url, apiKey: 'test-key', maxRetries: 0 });
 * fake.script(jsonReply({ answer: 42 }), rateLimitReply({ retryAfterSeconds: 0 }));
 * fake.setDefault((chat) => textReply(`echo: ${lastUserText(chat)}`));
 * // ... fake.requests[0]?.chat?.messages ...
 * await fake.close();
 * ```
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeReply } from './fake-openai-replies';
import { parseChatRequest, recordRequest, type FakeChatRequest, type RecordedRequest } from './fake-openai-request';
import { errorBody, replyBody, sendJson, sendReply } from './fake-openai-response';
import { createReplyScript, type FakeHandler } from './fake-openai-script';
import { createFakeBatches, type FakeBatches, type FakeBatchOptions } from './fake-openai-batches';
import { createPromptCache } from './fake-prompt-cache';

export * from './fake-openai-replies';
export { estimateTokens, lastUserText, type FakeChatRequest, type RecordedRequest } from './fake-openai-request';
export type { FakeHandler } from './fake-openai-script';
export type { FakeBatches, FakeBatchLine, FakeBatchOptions } from './fake-openai-batches';

export interface FakeOpenAIOptions {
  /** Used when the script is empty. Without one, unscripted calls get a non-retryable 400. */
  defaultHandler?: FakeHandler;
  /** Ids listed by `GET /v1/models`. */
  models?: string[];
  /** When set, requests must carry `Authorization: Bearer <apiKey>` or get a 401. */
  apiKey?: string;
  /** Listen on this port (an endpoint coming back where nothing listened); default: an ephemeral one. */
  port?: number;
  /** How the Files and Batch API behave (`fake-openai-batches.ts`). */
  batches?: FakeBatchOptions;
  /**
   * Play OpenAI's prompt cache (`fake-prompt-cache.ts`): completions report
   * `usage.prompt_tokens_details.cached_tokens` for the prefix an earlier request shared. Off, usage has no details.
   */
  promptCache?: boolean;
  /**
   * Keep every request in `requests` (default). A benchmark's fake answering ten thousand vision
   * requests of ~50 KB keeps none: it would carry and collect a gigabyte a real endpoint does not.
   */
  keepRequests?: boolean;
}

export interface FakeOpenAI {
  /** Base URL ending in `/v1`, ready for `new OpenAI({ baseURL })`. */
  url: string;
  /** Every request received, in arrival order (live array). */
  requests: RecordedRequest[];
  /** Queues replies (or per-call handlers) for the next chat completions, in order. */
  script(...replies: Array<FakeReply | FakeHandler>): void;
  setDefault(handler: FakeHandler): void;
  /** Scripted replies not yet consumed. */
  pending(): number;
  /** The Files and Batch API: batches made, their lines, lines to lose, polls to completion. */
  batches: FakeBatches;
  /** Stops listening, ends delayed replies and destroys open sockets. */
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1, on an ephemeral port unless `port` is given. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const replies = createReplyScript(options.defaultHandler);
  const models = options.models ?? ['gpt-4o-mini', 'gpt-4o'];
  let counter = 0;
  const cache = options.promptCache ? createPromptCache() : null;
  // Cancels every pending delay/hang so close() never waits on a timer.
  const abortAll = new AbortController();

  /** Resolves true after `ms` (never, for null), false if the client or server went away first. */
  function wait(ms: number | null, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      if (abortAll.signal.aborted || res.destroyed) return resolve(false);
      const finish = (elapsed: boolean) => {
        if (timer) clearTimeout(timer);
        abortAll.signal.removeEventListener('abort', onAbort);
        res.off('close', onAbort);
        resolve(elapsed);
      };
      const onAbort = () => finish(false);
      const timer = ms === null ? undefined : setTimeout(() => finish(true), ms);
      abortAll.signal.addEventListener('abort', onAbort);
      res.on('close', onAbort);
    });
  }

  async function answerChat(chat: FakeChatRequest, recorded: RecordedRequest, res: ServerResponse): Promise<void> {
    const reply = await replies.next(chat, recorded);
    if (reply.kind === 'drop') {
      res.socket?.destroy();
      return;
    }
    const delay = reply.kind === 'hang' ? null : (reply.delayMs ?? 0);
    if (delay !== 0 && !(await wait(delay, res))) return;
    if (reply.kind === 'hang') return;
    counter += 1;
    sendReply(res, chat, reply, counter, cache?.cachedTokens(chat) ?? null);
  }

  /** A batch line through the same script and handlers as a call on its own. */
  async function answerLine(body: unknown): Promise<{ status: number; body: unknown }> {
    const parsed = parseChatRequest(body);
    if ('problem' in parsed) {
      const { message, code, param } = parsed.problem;
      return { status: 400, body: errorBody(message, 'invalid_request_error', code, param) };
    }
    const rawBody = JSON.stringify(body);
    const recorded: RecordedRequest = { method: 'POST', path: '/v1/chat/completions', headers: {}, rawBody, body, chat: parsed.chat, receivedAt: Date.now() };
    const reply = await replies.next(parsed.chat, recorded);
    if (reply.kind === 'hang' || reply.kind === 'drop') return { status: 0, body: null };
    counter += 1;
    return replyBody(parsed.chat, reply, counter, cache?.cachedTokens(parsed.chat) ?? null);
  }
  const batches = createFakeBatches(answerLine, options.batches);

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const recorded = await recordRequest(req);
    const { method, path } = recorded;
    if (options.keepRequests !== false) requests.push(recorded);

    if (options.apiKey !== undefined && recorded.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendJson(res, 401, errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      return;
    }
    if (method === 'POST' && path === '/v1/chat/completions') {
      const parsed = parseChatRequest(recorded.body);
      if ('problem' in parsed) {
        const { message, code, param } = parsed.problem;
        sendJson(res, 400, errorBody(message, 'invalid_request_error', code, param));
        return;
      }
      recorded.chat = parsed.chat;
      await answerChat(parsed.chat, recorded, res);
      return;
    }
    if (method === 'GET' && path === '/v1/models') {
      const data = models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake-openai' }));
      sendJson(res, 200, { object: 'list', data });
      return;
    }
    const modelId = method === 'GET' ? /^\/v1\/models\/(.+)$/.exec(path)?.[1] : undefined;
    if (modelId !== undefined) {
      const id = decodeURIComponent(modelId);
      if (models.includes(id)) sendJson(res, 200, { id, object: 'model', created: 0, owned_by: 'fake-openai' });
      else sendJson(res, 404, errorBody(`The model '${id}' does not exist`, 'invalid_request_error', 'model_not_found'));
      return;
    }
    if (await batches.route(recorded, res)) return;
    sendJson(res, 404, errorBody(`Invalid URL (${method} ${path})`, 'invalid_request_error', null));
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      const message = error instanceof Error ? error.message : String(error);
      sendJson(res, 500, errorBody(`fake-openai: ${message}`, 'server_error', null), { 'x-should-retry': 'false' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...queued) => replies.push(...queued),
    setDefault: (handler) => replies.setDefault(handler),
    pending: () => replies.pending(),
    batches,
    close: () =>
      new Promise<void>((resolve) => {
        abortAll.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
