import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { putSettings } from '../../server/settings/settings-queries';
import { GenerateReportSchema, type Run, RunResponseSchema, runsApi } from '../../shared/api/runs';
import { ErrorBodySchema } from '../../shared/errors';
import { runCli } from '../support/cli';
import { correctItem, hqaModel } from '../support/fake-hqa-model';
import { dropReply, hangReply, jsonReply, serverErrorReply, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { settingsApi } from '../../shared/api/settings';

/** A port on 127.0.0.1 that nothing listens on (taken from the OS, then let go). */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function adminOf(server: TestServer): Promise<TestClient> {
  await server.createUser('root', 'admin', 'admin-pass-123');
  const admin = new TestClient(server.url);
  await admin.login('root', 'admin-pass-123');
  return admin;
}

async function runOf(client: TestClient, id: number): Promise<Run> {
  return (await client.call(runsApi.get, { params: { id } })).run;
}

function llmCalls(server: TestServer, runId: number): { outcome: string; error: string | null }[] {
  return server.server.ctx.db.prepare('SELECT outcome, error FROM llm_calls WHERE run_id = ? ORDER BY id').all(runId) as { outcome: string; error: string | null }[];
}

describe('a run against a port with nothing listening', () => {
  let port: number;
  let server: TestServer;
  let admin: TestClient;
  let fake: FakeOpenAI | null = null;

  beforeAll(async () => {
    port = await deadPort();
    // No demo: Stage 1 needs only the seed pool, one task per chart type.
    server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: `http://127.0.0.1:${port}/v1` } });
    admin = await adminOf(server);
    expect((await admin.send(settingsApi.update, { body: { max_retries: 1 } })).status).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await fake?.close();
  });

  it('pauses after the default 5 tasks in a row, with the reason, and resumes to done once the endpoint is back', async () => {
    const { run } = await admin.call(runsApi.create, { body: { engine: 'openai', stage: 'proposals', proposal_batches: 1, concurrency: 1 } });
    await server.server.executor.start(run.id);

    const paused = await runOf(admin, run.id);
    expect(paused).toMatchObject({ status: 'paused', tasks_total: 9, tasks_done: 0, proposals_created: 0, llm_calls: 10 });
    expect(paused.stop_reason).toMatch(/^endpoint unreachable: 5 calls in a row failed after their retries \(last: connection failed after 2 attempts: .*ECONNREFUSED.*\); resume the run once it answers again$/);
    // The endpoint failed those five tasks, not their content: they wait for the resume with the four never tried.
    expect(paused.tasks_failed).toBe(0);
    const calls = llmCalls(server, run.id);
    expect(calls).toHaveLength(10);
    expect(calls.every((call) => call.outcome === 'error' && /ECONNREFUSED/.test(call.error ?? ''))).toBe(true);

    fake = await startFakeOpenAI({ port, defaultHandler: hqaModel() });
    const resumed = await admin.send(runsApi.resume, { params: { id: run.id } });
    expect(RunResponseSchema.parse(resumed.body).run).toMatchObject({ status: 'running', stop_reason: null });
    await server.server.executor.start(run.id);
    expect(await runOf(admin, run.id)).toMatchObject({ status: 'done', stop_reason: null, tasks_done: 9, tasks_failed: 0, llm_calls: 19 });
  });
});

describe('a run against an endpoint that keeps failing', () => {
  let server: TestServer;
  let fake: FakeOpenAI;
  let admin: TestClient;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ defaultHandler: hqaModel() });
    server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    admin = await adminOf(server);
    const settings = await admin.send(settingsApi.update, { body: { max_retries: 1, pause_after_transport_failures: 3, request_timeout_ms: 1000 } });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('counts 503s, closed sockets and timeouts after their retries; an answer in between starts the count again', async () => {
    fake.script(
      serverErrorReply({ status: 503 }), serverErrorReply({ status: 503 }), // task 1: 1st in a row
      dropReply(), dropReply(), // task 2: 2nd
      (chat) => jsonReply(correctItem(chat)), // task 3: an item, the count starts again
      serverErrorReply({ status: 503 }), dropReply(), // task 4: 1st
      hangReply(), hangReply(), // task 5: 2nd (timed out twice)
      serverErrorReply({ status: 502 }), serverErrorReply({ status: 500 }), // task 6: 3rd, the run pauses
    );
    const created = await admin.send(runsApi.create, { body: { engine: 'openai', stage: 'items', chart_type: 'vertical_bar', items: 8, order: 'id', concurrency: 1 } });
    const { run } = RunResponseSchema.parse(created.body);
    await server.server.executor.start(run.id);

    const paused = await runOf(admin, run.id);
    expect(paused).toMatchObject({ status: 'paused', llm_calls: 11, items_created: 1 });
    expect(paused.stop_reason).toMatch(/^endpoint unreachable: 3 calls in a row failed after their retries \(last: HTTP 500 after 2 attempts: .*\); resume the run once it answers again$/);
    expect(fake.pending()).toBe(0);
    expect(llmCalls(server, run.id).map((call) => call.outcome)).toEqual([...Array(4).fill('error'), 'ok', ...Array(6).fill('error')]);
    expect(llmCalls(server, run.id)[7]?.error).toMatch(/timed out/);
    // Tasks 1 and 2 failed before the endpoint answered again: they stay failed; 4–6 wait for the resume.
    const detail = await admin.call(runsApi.get, { params: { id: run.id } });
    expect(detail.errors.map((error) => error.error)).toEqual([expect.stringMatching(/connection failed/), expect.stringMatching(/HTTP 503/)]);

    expect((await admin.send(runsApi.resume, { params: { id: run.id } })).status).toBe(200);
    await server.server.executor.start(run.id);
    const done = await runOf(admin, run.id);
    expect(done).toMatchObject({ status: 'done', stop_reason: null, items_failed: 2, tasks_total: 8 });
    // A question no proposal can change is declined unasked; every other task after the resume made its item.
    expect(done.items_created + done.items_declined).toBe(6);
    expect(done.items_created).toBeGreaterThanOrEqual(4);
  });

  it('refuses a money budget for a model with no price, naming the field', async () => {
    const refused = await admin.send(runsApi.create, { body: { engine: 'openai', model: 'local-llama', stage: 'items', items: 1, budget_cost: 1 } });
    expect(refused.status).toBe(400);
    expect(ErrorBodySchema.parse(refused.body).error).toMatchObject({ code: 'bad_request', field: 'budget_cost', message: expect.stringMatching(/^model 'local-llama' has no price in the settings price table/) });
    // A priced model, a token cap, or the offline engine (which costs nothing) are fine.
    for (const config of [
      { engine: 'openai', model: 'gpt-4o-mini', budget_cost: 1 },
      { engine: 'openai', model: 'local-llama', budget_tokens: 1000 },
      { engine: 'offline', budget_cost: 1 },
    ]) {
      const res = await admin.send(runsApi.create, { body: { ...config, stage: 'items', items: 0 } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await server.server.executor.start(RunResponseSchema.parse(res.body).run.id);
    }
  });
});

/** A CLI process starts in seconds, in tens of them on a loaded 2-core machine. */
const CLI_TEST_TIMEOUT_MS = 90_000;

describe('hqa generate against a dead endpoint', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hqa-dead-endpoint-'));
  const dbPath = join(dir, 'hqa.sqlite');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pauses and says why in its JSON report', async () => {
    const db = openAndMigrate(dbPath);
    putSettings(db, { max_retries: 0 });
    db.close();
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `http://127.0.0.1:${await deadPort()}/v1` };
    const result = await runCli(['generate', '--stage', 'proposals', '--concurrency', '1', '--json'], { dbPath, env });
    expect(result.status).toBe(1);
    const report = GenerateReportSchema.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ status: 'paused', llm_calls: 5, proposals_created: 0 });
    expect(report.stop_reason).toMatch(/^endpoint unreachable: 5 calls in a row failed after their retries \(last: connection failed after 1 attempt: .*ECONNREFUSED/);
  }, CLI_TEST_TIMEOUT_MS);

  it('refuses --budget-cost for a model with no price', async () => {
    const result = await runCli(['generate', '--stage', 'items', '--model', 'local-llama', '--budget-cost', '1', '--json'], { dbPath, env: { OPENAI_API_KEY: 'test-key' } });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^hqa: --budget-cost: model 'local-llama' has no price in the settings price table/);
  }, CLI_TEST_TIMEOUT_MS);
});
