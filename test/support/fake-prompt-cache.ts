import { promptTokens, type FakeChatRequest } from './fake-openai-request';

/** The fake's tokens are characters / 4 (`estimateTokens`); a shared prefix counts whole ones only. */
const CHARS_PER_TOKEN = 4;

/** OpenAI caches a prompt prefix from this many tokens on... */
const MIN_CACHED_TOKENS = 1024;
/** ...and serves it in whole blocks of this many. */
const CACHE_BLOCK_TOKENS = 128;

export interface FakePromptCache {
  /** The tokens of `chat`'s prompt an earlier request's prompt already holds; remembers this one. */
  cachedTokens(chat: FakeChatRequest): number;
}

/**
 * The prompt cache of OpenAI's endpoints, as the fake plays it: a request's prompt (its
 * structured-output schema first, as OpenAI puts it before the system message, then every
 * message in order, an image by its URL) is compared with every earlier request's, and the
 * longest prefix they share is served from the cache when it holds at least 1,024 tokens, in
 * whole blocks of 128 — in the fake's tokens (characters / 4). A prompt that puts what varies
 * before what does not gets nothing from it, which is what tests of prompt order want to see.
 */
export function createPromptCache(): FakePromptCache {
  const seen: string[] = [];
  return {
    cachedTokens(chat) {
      const prompt = promptText(chat);
      const shared = Math.max(0, ...seen.map((earlier) => sharedPrefix(earlier, prompt)));
      seen.push(prompt);
      const tokens = Math.floor(shared / CHARS_PER_TOKEN);
      if (tokens < MIN_CACHED_TOKENS) return 0;
      return Math.min(Math.floor(tokens / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS, promptTokens(chat));
    },
  };
}

function promptText(chat: FakeChatRequest): string {
  const format = chat.response_format;
  const schema = format?.type === 'json_schema' ? JSON.stringify(format.json_schema.schema ?? {}) : '';
  const messages = chat.messages.map((message) => {
    const parts = typeof message.content === 'string' ? [message.content] : (message.content ?? []).map((part) => part.text ?? JSON.stringify(part));
    return `${message.role}\n${parts.join('\n')}`;
  });
  return [schema, ...messages].join('\n');
}

function sharedPrefix(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
