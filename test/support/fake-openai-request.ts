import type { IncomingMessage } from 'node:http';
import { z } from 'zod';

/** What the fake OpenAI server reads from a request: the recorded request, the checked chat body, its prompt tokens. */

/** Tokens charged per image part: OpenAI's flat cost for a low-detail image. */
const IMAGE_PART_TOKENS = 85;
/** Per-message framing tokens (role, separators) in OpenAI's chat format. */
const MESSAGE_OVERHEAD_TOKENS = 4;

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

/** Why a chat request is refused with a 400, worded as the real API words it. */
export interface ChatRequestProblem {
  message: string;
  code: string | null;
  param: string | null;
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

/** Prompt tokens as OpenAI counts them, near enough: text, per-message framing, images and a JSON schema. */
export function promptTokens(chat: FakeChatRequest): number {
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

/** Reads the whole request and records it, body parsed as JSON where it is JSON. */
export async function recordRequest(req: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks).toString('utf8');
  return {
    method: req.method ?? 'GET',
    path: new URL(req.url ?? '/', 'http://fake').pathname,
    headers: flattenHeaders(req),
    rawBody,
    body: rawBody === '' ? undefined : parseJson(rawBody),
    chat: undefined,
    receivedAt: Date.now(),
  };
}

/** The chat-completion body, or why the real API would refuse it. */
export function parseChatRequest(body: unknown): { chat: FakeChatRequest } | { problem: ChatRequestProblem } {
  if (body === undefined) {
    return { problem: { message: 'We could not parse the JSON body of your request.', code: null, param: null } };
  }
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue ? issue.path.join('.') : null;
    const message = `Invalid request: '${param ?? ''}': ${issue?.message ?? 'invalid'}`;
    return { problem: { message, code: 'invalid_value', param } };
  }
  const chat = parsed.data;
  // The real API rejects JSON mode unless the prompt mentions JSON; mirror it so prompts stay portable.
  if (chat.response_format?.type === 'json_object' && !chat.messages.some((m) => /json/i.test(messageText(m.content)))) {
    const message = "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.";
    return { problem: { message, code: null, param: 'messages' } };
  }
  return { chat };
}
