import type { FakeChatRequest, RecordedRequest } from './fake-openai-request';
import { errorReply, type FakeReply } from './fake-openai-replies';

/** What the fake "model" says next: scripted replies in order, then the default handler. */

/** Decides the reply from the request, e.g. by looking at the prompt. */
export type FakeHandler = (chat: FakeChatRequest, recorded: RecordedRequest) => FakeReply | Promise<FakeReply>;

export interface ReplyScript {
  /** Queues replies (or per-call handlers) for the next chat completions, in order. */
  push(...replies: Array<FakeReply | FakeHandler>): void;
  setDefault(handler: FakeHandler): void;
  /** Scripted replies not yet consumed. */
  pending(): number;
  /** Takes the next reply; an empty script without a default, or a handler that throws, becomes an error reply. */
  next(chat: FakeChatRequest, recorded: RecordedRequest): Promise<FakeReply>;
}

export function createReplyScript(defaultHandler: FakeHandler | undefined): ReplyScript {
  const queue: Array<FakeReply | FakeHandler> = [];
  let fallback = defaultHandler;
  return {
    push: (...replies) => {
      queue.push(...replies);
    },
    setDefault: (handler) => {
      fallback = handler;
    },
    pending: () => queue.length,
    next: async (chat, recorded) => {
      const next = queue.shift() ?? fallback;
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
    },
  };
}
