import { getEventListeners } from 'node:events';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hangReply, startFakeOpenAI, textReply, type FakeOpenAI } from '../../test/support/fake-openai';
import { withRequestSignal } from './request-signal';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ defaultHandler: () => textReply('Answer: 1') });
});
afterAll(async () => fake.close());

describe('withRequestSignal', () => {
  it('leaves no listener on a long-lived signal however many SDK calls it spans', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    const run = new AbortController();
    for (let i = 0; i < 30; i++) {
      await withRequestSignal(run.signal, (signal) => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, signal ? { signal } : {}));
    }
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('still aborts the request in flight when the parent aborts', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    fake.script(hangReply());
    const run = new AbortController();
    const call = withRequestSignal(run.signal, (signal) => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, signal ? { signal } : {}));
    await expect.poll(() => fake.pending()).toBe(0);
    run.abort();
    await expect(call).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
  });
});
