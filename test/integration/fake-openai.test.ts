import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  estimateTokens,
  hangReply,
  jsonReply,
  lastUserText,
  notJsonReply,
  rateLimitReply,
  refusalReply,
  serverErrorReply,
  slowReply,
  startFakeOpenAI,
  textReply,
  truncatedJsonReply,
  type FakeOpenAI,
} from '../support/fake-openai';

const MODEL = 'gpt-4o-mini';
/** The SDK's first back-off without a retry-after header: 0.5 s, less up to a quarter of jitter. */
const SDK_MAX_DEFAULT_BACKOFF_MS = 500;
const AnswerSchema = z.object({ answer: z.number(), rationale: z.string() });
const answerFormat = zodResponseFormat(AnswerSchema, 'answer');
const question = [{ role: 'user' as const, content: 'If the 2020 bar doubled, what is the total?' }];

let fake: FakeOpenAI;
let client: OpenAI;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  client = new OpenAI({ baseURL: fake.url, apiKey: 'test-key', maxRetries: 0 });
});

afterEach(async () => {
  await fake.close();
});

describe('fake OpenAI server through the real SDK', () => {
  it('returns a scripted text reply with the wire envelope and plausible usage', async () => {
    fake.script(textReply('The total is 42.'));

    const completion = await client.chat.completions.create({ model: MODEL, messages: question });

    expect(completion).toMatchObject({ object: 'chat.completion', model: MODEL });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.created).toBeGreaterThan(0);
    expect(completion.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'The total is 42.', refusal: null });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.completion_tokens).toBe(estimateTokens('The total is 42.'));
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(estimateTokens(question[0]?.content ?? ''));
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
  });

  it('records method, path, parsed body and the bearer key', async () => {
    fake.script(textReply('ok'));

    await client.chat.completions.create({ model: MODEL, messages: question, temperature: 0 });

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request?.headers.authorization).toBe('Bearer test-key');
    expect(request?.body).toMatchObject({ model: MODEL, temperature: 0, messages: question });
    expect(request?.chat?.messages[0]?.content).toBe(question[0]?.content);
  });

  it('keeps no request when told not to (a long benchmark), answering each all the same', async () => {
    const quiet = await startFakeOpenAI({ defaultHandler: () => textReply('ok'), keepRequests: false });
    try {
      const quietClient = new OpenAI({ baseURL: quiet.url, apiKey: 'test-key', maxRetries: 0 });
      for (let i = 0; i < 3; i++) {
        const completion = await quietClient.chat.completions.create({ model: MODEL, messages: question });
        expect(completion.choices[0]?.message.content).toBe('ok');
      }
      expect(quiet.requests).toHaveLength(0);
    } finally {
      await quiet.close();
    }
  });

  it('parses structured output with a zod response format', async () => {
    fake.script(jsonReply({ answer: 42, rationale: 'doubled 2020 adds 12' }));

    const completion = await client.chat.completions.parse({ model: MODEL, messages: question, response_format: answerFormat });

    expect(completion.choices[0]?.message.parsed).toEqual({ answer: 42, rationale: 'doubled 2020 adds 12' });
    expect(fake.requests[0]?.chat?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'answer', strict: true, schema: { type: 'object' } },
    });
  });

  it('answers from the prompt through the default handler', async () => {
    fake.setDefault((chat) => textReply(`echo: ${lastUserText(chat)}`));

    const completion = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'ping' }] });

    expect(completion.choices[0]?.message.content).toBe('echo: ping');
  });

  it('consumes scripted replies in order before falling back to the default', async () => {
    fake.script(textReply('first'), () => textReply('second'));
    fake.setDefault(() => textReply('default'));
    const say = async () => (await client.chat.completions.create({ model: MODEL, messages: question })).choices[0]?.message.content;

    expect([await say(), await say(), await say()]).toEqual(['first', 'second', 'default']);
    expect(fake.pending()).toBe(0);
  });

  it('supports JSON mode and rejects it, like OpenAI, when the prompt never says json', async () => {
    fake.script(jsonReply({ answer: 1 }));
    const ok = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Reply in JSON.' }],
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(ok.choices[0]?.message.content ?? '')).toEqual({ answer: 1 });

    await expect(
      client.chat.completions.create({ model: MODEL, messages: question, response_format: { type: 'json_object' } }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });

  it('surfaces 429 as RateLimitError with a readable retry-after', async () => {
    fake.script(rateLimitReply({ retryAfterSeconds: 7 }));

    const error: unknown = await client.chat.completions.create({ model: MODEL, messages: question }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimited = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimited.status).toBe(429);
    expect(rateLimited.headers.get('retry-after')).toBe('7');
    expect(rateLimited.code).toBe('rate_limit_exceeded');
  });

  it('lets the SDK honour retry-after and succeed on the next scripted reply', async () => {
    const retrying = new OpenAI({ baseURL: fake.url, apiKey: 'test-key', maxRetries: 1 });
    fake.script(rateLimitReply({ retryAfterSeconds: 1.5 }), textReply('after the wait'));

    const completion = await retrying.chat.completions.create({ model: MODEL, messages: question });

    expect(completion.choices[0]?.message.content).toBe('after the wait');
    expect(fake.requests).toHaveLength(2);
    const [first, second] = fake.requests;
    const gapMs = (second?.receivedAt ?? 0) - (first?.receivedAt ?? 0);
    // The SDK's own first back-off is 375–500 ms, so a gap of our header's 1.5 s shows it read
    // the header. (A gap under a short header's wait was the test once: a loaded machine's
    // delay alone took it past 375 ms. Load only lengthens a gap, which cannot fail this one.)
    expect(gapMs).toBeGreaterThanOrEqual(1_450);
    expect(gapMs).toBeGreaterThan(SDK_MAX_DEFAULT_BACKOFF_MS * 2);
  });

  it('surfaces 500 as InternalServerError', async () => {
    fake.script(serverErrorReply());

    await expect(client.chat.completions.create({ model: MODEL, messages: question })).rejects.toBeInstanceOf(
      OpenAI.InternalServerError,
    );
  });

  it('delays a slow reply, times out past the client limit, and ends a hang on close', async () => {
    fake.script(slowReply(60, textReply('worth the wait')), slowReply(2_000, textReply('too late')));
    const before = Date.now();
    const patient = await client.chat.completions.create({ model: MODEL, messages: question }, { timeout: 1_000 });
    expect(patient.choices[0]?.message.content).toBe('worth the wait');
    expect(Date.now() - before).toBeGreaterThanOrEqual(55);

    await expect(
      client.chat.completions.create({ model: MODEL, messages: question }, { timeout: 100 }),
    ).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);

    fake.script(hangReply());
    const hanging = client.chat.completions.create({ model: MODEL, messages: question }).catch((e: unknown) => e);
    await expect.poll(() => fake.requests.length, { timeout: 10_000 }).toBe(3);
    const started = Date.now();
    await fake.close();
    expect(await hanging).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('returns truncated JSON faithfully, so parsing fails in the client', async () => {
    fake.script(truncatedJsonReply({ answer: 42, rationale: 'doubled' }));

    await expect(
      client.chat.completions.parse({ model: MODEL, messages: question, response_format: answerFormat }),
    ).rejects.toBeInstanceOf(SyntaxError);
  });

  it('returns well-formed JSON of the wrong shape, so the zod schema rejects it', async () => {
    fake.script(jsonReply({ answer: 'forty-two' }));

    await expect(
      client.chat.completions.parse({ model: MODEL, messages: question, response_format: answerFormat }),
    ).rejects.toBeInstanceOf(z.ZodError);
  });

  it('passes a body that is not JSON through to the SDK', async () => {
    fake.script(notJsonReply('{"id": "chatcmpl-'), notJsonReply('<html>bad gateway</html>', { status: 502, contentType: 'text/html' }));

    await expect(client.chat.completions.create({ model: MODEL, messages: question })).rejects.toBeInstanceOf(SyntaxError);
    const error: unknown = await client.chat.completions.create({ model: MODEL, messages: question }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
  });

  it('sends a refusal that leaves nothing parsed', async () => {
    fake.script(refusalReply('I cannot answer that.'));

    const completion = await client.chat.completions.parse({ model: MODEL, messages: question, response_format: answerFormat });

    expect(completion.choices[0]?.message).toMatchObject({ content: null, refusal: 'I cannot answer that.', parsed: null });
  });

  it('streams a reply as SSE chunks with usage at the end', async () => {
    fake.script(textReply('a streamed answer that spans several chunks'));

    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: question,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }

    expect(text).toBe('a streamed answer that spans several chunks');
    expect(usage?.completion_tokens).toBe(estimateTokens(text));
  });

  it('lists models and rejects malformed requests with an OpenAI-style 400', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain(MODEL);

    const error: unknown = await client.chat.completions
      .create({ model: MODEL, messages: [] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('messages');
  });

  it('answers unscripted calls with a non-retryable error instead of guessing', async () => {
    await expect(client.chat.completions.create({ model: MODEL, messages: question })).rejects.toThrow(/no scripted reply/);
  });
});
