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
import { z } from 'zod';
import { errorReply, type FakeFinishReason, type FakeReply } from './fake-openai-replies';

export * from './fake-openai-replies';

/** Tokens charged per image part: OpenAI's flat cost for a low-detail image. */
const IMAGE_PART_TOKENS = 85;
/** Per-message framing tokens (role, separators) in OpenAI's chat format. */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** Characters per SSE content delta when streaming. */
const STREAM_CHUNK_CHARS = 16;

const contentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

const messageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(contentPartSchema), z.null()]).optional(),
});

const responseFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string().min(1),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  response_format: responseFormatSchema.optional(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
});

/** The chat-completion request body as the fake understands it; unknown fields are kept. */
export type FakeChatRequest = z.infer<typeof chatRequestSchema>;

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  rawBody: string;
  /** The JSON body, or `undefined` when empty or not JSON. */
  body: unknown;
  /** Set for valid `POST /v1/chat/completions` bodies. */
  chat: FakeChatRequest | undefined;
  /** `Date.now()` when the body had arrived; lets tests measure retry back-off. */
  receivedAt: number;
}

/** Decides the reply from the request, e.g. by looking at the prompt. */
export type FakeHandler = (chat: FakeChatRequest, recorded: RecordedRequest) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAIOptions {
  /** Used when the script is empty. Without one, unscripted calls get a non-retryable 400. */
  defaultHandler?: FakeHandler;
  /** Ids listed by `GET /v1/models`. */
  models?: string[];
  /** When set, requests must carry `Authorization: Bearer <apiKey>` or get a 401. */
  apiKey?: string;
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
  /** Stops listening, ends delayed replies and destroys open sockets. */
  close(): Promise<void>;
}

/** Plausible token count: about four characters per token. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

/** Text of the last user message (text parts joined), for handlers that answer the prompt. */
export function lastUserText(chat: FakeChatRequest): string {
  const user = chat.messages.filter((m) => m.role === 'user').at(-1);
  return user ? messageText(user.content) : '';
}

function messageText(content: z.infer<typeof messageSchema>['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('\n');
}

function promptTokens(chat: FakeChatRequest): number {
  let tokens = 0;
  for (const message of chat.messages) {
    const images = Array.isArray(message.content) ? message.content.filter((p) => p.type === 'image_url').length : 0;
    tokens += MESSAGE_OVERHEAD_TOKENS + estimateTokens(messageText(message.content)) + images * IMAGE_PART_TOKENS;
  }
  const format = chat.response_format;
  if (format?.type === 'json_schema') tokens += estimateTokens(JSON.stringify(format.json_schema.schema ?? {}));
  return tokens;
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function errorBody(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** Starts the fake on 127.0.0.1 with an ephemeral port. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const queue: Array<FakeReply | FakeHandler> = [];
  const models = options.models ?? ['gpt-4o-mini', 'gpt-4o'];
  let defaultHandler = options.defaultHandler;
  let counter = 0;
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

  async function chooseReply(chat: FakeChatRequest, recorded: RecordedRequest): Promise<FakeReply> {
    const next = queue.shift() ?? defaultHandler;
    if (!next) {
      return errorReply(400, 'fake-openai: no scripted reply left and no default handler', { code: 'fake_unscripted' });
    }
    if (typeof next !== 'function') return next;
    try {
      return await next(chat, recorded);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return errorReply(500, `fake-openai: handler threw: ${message}`, {
        type: 'server_error',
        headers: { 'x-should-retry': 'false' },
      });
    }
  }

  async function answerChat(chat: FakeChatRequest, recorded: RecordedRequest, res: ServerResponse): Promise<void> {
    const reply = await chooseReply(chat, recorded);
    const delay = reply.kind === 'hang' ? null : (reply.delayMs ?? 0);
    if (delay !== 0 && !(await wait(delay, res))) return;
    if (reply.kind === 'hang') return;
    counter += 1;
    const headers = { 'x-request-id': `req_fake_${counter}`, ...reply.headers };

    if (reply.kind === 'error') {
      sendJson(res, reply.status, errorBody(reply.message, reply.type, reply.code), headers);
      return;
    }
    if (reply.kind === 'raw') {
      res.writeHead(reply.status, { 'content-type': reply.contentType, ...headers });
      res.end(reply.body);
      return;
    }

    const content = reply.kind === 'text' ? reply.content : null;
    const refusal = reply.kind === 'refusal' ? reply.refusal : null;
    const finishReason: FakeFinishReason = reply.kind === 'text' ? (reply.finishReason ?? 'stop') : 'stop';
    const prompt = promptTokens(chat);
    const completion = estimateTokens(content ?? refusal ?? '');
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    const envelope = {
      id: `chatcmpl-fake-${counter}`,
      created: Math.floor(Date.now() / 1000),
      model: chat.model,
      system_fingerprint: 'fp_fake',
    };

    if (!chat.stream) {
      sendJson(
        res,
        200,
        {
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
        },
        headers,
      );
      return;
    }

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

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
    res.end(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('') + 'data: [DONE]\n\n');
  }

  function checkChatRequest(body: unknown, res: ServerResponse): FakeChatRequest | undefined {
    if (body === undefined) {
      sendJson(res, 400, errorBody('We could not parse the JSON body of your request.', 'invalid_request_error', null));
      return undefined;
    }
    const parsed = chatRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const param = issue ? issue.path.join('.') : null;
      const message = `Invalid request: '${param ?? ''}': ${issue?.message ?? 'invalid'}`;
      sendJson(res, 400, errorBody(message, 'invalid_request_error', 'invalid_value', param));
      return undefined;
    }
    const chat = parsed.data;
    // The real API rejects JSON mode unless the prompt mentions JSON; mirror it so prompts stay portable.
    if (chat.response_format?.type === 'json_object' && !chat.messages.some((m) => /json/i.test(messageText(m.content)))) {
      const message = "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.";
      sendJson(res, 400, errorBody(message, 'invalid_request_error', null, 'messages'));
      return undefined;
    }
    return chat;
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const method = req.method ?? 'GET';
    const recorded: RecordedRequest = {
      method,
      path,
      headers: flattenHeaders(req),
      rawBody,
      body: rawBody === '' ? undefined : parseJson(rawBody),
      chat: undefined,
      receivedAt: Date.now(),
    };
    requests.push(recorded);

    if (options.apiKey !== undefined && recorded.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendJson(res, 401, errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      return;
    }
    if (method === 'POST' && path === '/v1/chat/completions') {
      const chat = checkChatRequest(recorded.body, res);
      if (!chat) return;
      recorded.chat = chat;
      await answerChat(chat, recorded, res);
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
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => {
      queue.push(...replies);
    },
    setDefault: (handler) => {
      defaultHandler = handler;
    },
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        abortAll.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
