import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsApi } from '../../shared/api/settings';
import { type Run, RunResponseSchema, runsApi } from '../../shared/api/runs';
import { ErrorBodySchema } from '../../shared/errors';
import { hqaModel } from '../support/fake-hqa-model';
import { hangReply, startFakeOpenAI, textReply, type FakeOpenAI } from '../support/fake-openai';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let fake: FakeOpenAI;
let admin: TestClient;

beforeAll(async () => {
  fake = await startFakeOpenAI({ defaultHandler: hqaModel({ delayMs: 100 }) });
  server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
  await server.createUser('root', 'admin', 'admin-pass-123');
  await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
  admin = new TestClient(server.url);
  await admin.login('root', 'admin-pass-123');
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

describe('settings (admin)', () => {
  it('reads defaults, stores only what is sent, validates, and is refused to others', async () => {
    const defaults = (await admin.call(settingsApi.get)).settings;
    expect(defaults.generation_model).toBe('gpt-4o-mini');
    const res = await admin.send(settingsApi.update, { body: { generation_model: 'local-llama', price_table: { 'local-llama': { input_per_mtok: 1, output_per_mtok: 2 } } } });
    expect(res.status).toBe(200);
    await admin.send(settingsApi.update, { body: { temperature: 0.1 } });
    const now = (await admin.call(settingsApi.get)).settings;
    expect(now).toMatchObject({ generation_model: 'local-llama', temperature: 0.1, rouge_threshold: defaults.rouge_threshold });
    const bad = await admin.send(settingsApi.update, { body: { rouge_threshold: 2 } });
    expect(bad.status).toBe(400);
    expect(ErrorBodySchema.parse(bad.body).error.field).toBe('body.rouge_threshold');
    const reviewer = new TestClient(server.url);
    await reviewer.login('rev', 'reviewer-pass-1');
    expect((await reviewer.send(settingsApi.get)).status).toBe(403);
  });

  it('refuses a price table naming a model "__proto__" by its field, and keeps the stored table', async () => {
    const before = (await admin.call(settingsApi.get)).settings.price_table;
    // Raw JSON: in an object literal `__proto__` would set the prototype, not send a key.
    const res = await admin.send(settingsApi.update, { body: '{"price_table": {"__proto__": {"input_per_mtok": 1, "output_per_mtok": 2}}}' });
    expect(res.status).toBe(400);
    const { error } = ErrorBodySchema.parse(res.body);
    expect(error.field).toBe('body.price_table.__proto__');
    expect(error.message).toMatch(/"__proto__" cannot be used as a name/);
    expect((await admin.call(settingsApi.get)).settings.price_table).toEqual(before);
  });

  it('runs use the model and price table from settings', async () => {
    // A question the pool's proposals can change, so a request is sent (one they cannot sends none).
    const res = await admin.send(runsApi.create, { body: { engine: 'openai', stage: 'items', chart_type: 'grouped_bar', items: 1 } });
    const { run } = RunResponseSchema.parse(res.body);
    expect(run.model).toBe('local-llama');
    await server.server.executor.start(run.id);
    const done = (await admin.call(runsApi.get, { params: { id: run.id } })).run;
    expect(done.llm_calls).toBeGreaterThan(0);
    expect(done.cost).toBeCloseTo((done.prompt_tokens * 1 + done.completion_tokens * 2) / 1e6, 9);
    expect(fake.requests.at(-1)?.chat?.model).toBe('local-llama');
  });
});

describe('run control', () => {
  async function getRun(id: number): Promise<Run> {
    return (await admin.call(runsApi.get, { params: { id } })).run;
  }

  it('pauses, resumes to done, and cancels', async () => {
    const started = (await admin.call(runsApi.create, { body: { engine: 'openai', stage: 'items', chart_type: 'horizontal_bar', items: 8, concurrency: 1 } })).run;
    await expect.poll(async () => (await getRun(started.id)).items_created).toBeGreaterThanOrEqual(1);
    const paused = await admin.send(runsApi.pause, { params: { id: started.id } });
    expect(RunResponseSchema.parse(paused.body).run.status).toBe('paused');
    const frozen = (await getRun(started.id)).items_created;
    // A fixed window, not an event: a paused run that stays still announces nothing, so only time
    // shows it (at 100 ms a call, a run going on would make several items in it).
    await new Promise((r) => setTimeout(r, 400));
    expect((await getRun(started.id)).items_created).toBeLessThanOrEqual(frozen + 1);
    expect((await admin.send(runsApi.pause, { params: { id: started.id } })).status).toBe(409);
    expect((await admin.call(runsApi.resume, { params: { id: started.id } })).run.status).toBe('running');
    await expect.poll(async () => (await getRun(started.id)).status).toBe('done');
    const done = await getRun(started.id);
    expect(done.items_created + done.items_failed + done.items_declined).toBe(done.tasks_total);

    const other = (await admin.call(runsApi.create, { body: { engine: 'openai', stage: 'items', chart_type: 'grouped_bar', items: 8, concurrency: 1 } })).run;
    const cancelled = await admin.send(runsApi.cancel, { params: { id: other.id } });
    expect(RunResponseSchema.parse(cancelled.body).run.status).toBe('cancelled');
    // A fixed window, as for the pause: only time shows that the call in flight at the cancel
    // neither brings the run back nor lets it go on.
    await new Promise((r) => setTimeout(r, 300));
    const after = await getRun(other.id);
    expect(after.status).toBe('cancelled');
    expect(after.items_created).toBeLessThan(8);
    expect((await admin.send(runsApi.resume, { params: { id: other.id } })).status).toBe(409);
  });

  it('a stopped run counts the usage of the calls it made before the stop', async () => {
    // The first answer is not JSON (paid for), the repair call hangs until the cancel.
    fake.script(textReply('Sure! Here is the item you asked for.'), hangReply());
    const started = (await admin.call(runsApi.create, { body: { engine: 'openai', stage: 'items', chart_type: 'grouped_bar', items: 1, concurrency: 1 } })).run;
    const calls = () => server.server.ctx.db.prepare('SELECT COUNT(*) AS n, SUM(prompt_tokens) AS prompt, SUM(completion_tokens) AS completion FROM llm_calls WHERE run_id = ?').get(started.id) as { n: number; prompt: number; completion: number };
    await expect.poll(() => fake.pending()).toBe(0);
    await expect.poll(() => calls().n).toBeGreaterThanOrEqual(1);
    expect((await admin.send(runsApi.cancel, { params: { id: started.id } })).status).toBe(200);
    await expect.poll(async () => (await getRun(started.id)).prompt_tokens).toBeGreaterThan(0);
    const run = await getRun(started.id);
    expect(run.prompt_tokens).toBe(calls().prompt);
    expect(run.completion_tokens).toBe(calls().completion);
  });
});
