import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { evalApi, type EvalRun } from '../../shared/api/evaluations';
import { ChartHqaExportV1Schema, type ChartHqaItem } from '../../shared/export/chart-hqa';
import type { ServerToClientEvents } from '../../shared/events';
import { SettingsSchema } from '../../shared/settings';
import { callCost } from '../../server/llm/cost';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { lastUserText, startFakeOpenAI, textReply, type FakeOpenAI } from '../support/fake-openai';
import { listItemIds, setItemStatus, setJobOwner } from '../support/factories';
import { TestClient } from '../support/http-client';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { onEvent } from '../support/socket-client';
import { exportApi } from '../../shared/api/export';

let server: TestServer;
let fake: FakeOpenAI;
let cora: TestClient;
let items: ChartHqaItem[];
const db = () => server.server.ctx.db;

beforeAll(async () => {
  // The model answers each question with its item's gold answer: a result mapped to the wrong question scores wrong.
  const answers = new Map<string, string>();
  fake = await startFakeOpenAI({ defaultHandler: (chat) => textReply(`Reasoning…\nAnswer: ${answers.get(lastUserText(chat).trim()) ?? 'none'}`) });
  server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url, batchPollMs: 10 } });
  const run = await generateItems(server, 12);
  setItemStatus(db(), 'accepted', listItemIds(db(), { runId: run, limit: 5 }));
  await server.createUser('cora', 'curator', 'curator-pass-1');
  cora = new TestClient(server.url);
  await cora.login('cora', 'curator-pass-1');
  items = ChartHqaExportV1Schema.parse((await cora.send(exportApi.download, { body: { format: 'chart-hqa' } })).body).items;
  expect(items.length).toBeGreaterThanOrEqual(3);
  for (const item of items) answers.set(item.question, item.answer);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function openSocket(): Promise<Socket<ServerToClientEvents>> {
  const socket: Socket<ServerToClientEvents> = connectSocket(server.url, { extraHeaders: { cookie: cora.cookie }, transports: ['websocket'] });
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  return socket;
}

const getRun = async (id: number): Promise<EvalRun> => (await cora.call(evalApi.get, { params: { id } })).run;

describe('evaluation runs with the batch box ticked', () => {
  it('send one batch, show submitted / in progress / downloading, and store every answer at the batch price', async () => {
    fake.batches.configure({ pollsToComplete: 3, shuffle: true });
    const socket = await openSocket();
    const seen: string[] = [];
    onEvent(socket, 'eval.progressed', ({ run }) => {
      const step = run.batch_progress ? `${run.batch_progress.state} ${run.batch_progress.completed}/${run.batch_progress.total}` : null;
      if (step && seen.at(-1) !== step) seen.push(step);
    });
    try {
      const created = fake.batches.created();
      const { run } = await cora.call(evalApi.create, { body: { engine: 'openai', model: 'gpt-4o-mini', mode: 'no_image', batch: true } });
      expect(run.batch).toBe(true);
      await expect.poll(async () => (await getRun(run.id)).status, { timeout: 30_000 }).toBe('done');
      const done = await getRun(run.id);
      const n = items.length;
      expect(done).toMatchObject({ items_answered: n, items_failed: 0, batch_progress: { state: 'done', total: n, completed: n, failed: 0 } });
      expect(done.score.counts.correct).toBe(n);
      expect(fake.batches.created()).toBe(created + 1);
      await expect.poll(() => seen.at(-1)).toBe(`done ${n}/${n}`);
      expect(seen).toEqual(expect.arrayContaining([`submitted 0/${n}`, `in_progress ${Math.floor(n / 3)}/${n}`, `downloading ${n}/${n}`]));

      const results = (await cora.call(evalApi.results, { params: { id: run.id }, query: { page_size: 100 } })).results;
      for (const result of results) expect(result.prediction).toBe(items.find((item) => item.id === result.id)?.answer);
      const calls = listLlmCalls(db(), { evalRunId: run.id });
      expect(calls).toHaveLength(n);
      const prices = SettingsSchema.parse({}).price_table;
      for (const call of calls) {
        expect(call.batch_id).not.toBeNull();
        expect(call.cost).toBeCloseTo(callCost('gpt-4o-mini', call, prices).cost / 2, 12);
      }
      expect(done.cost).toBeCloseTo(calls.reduce((sum, call) => sum + call.cost, 0), 9);
      expect(done.prompt_tokens).toBe(calls.reduce((sum, call) => sum + call.prompt_tokens, 0));
    } finally {
      socket.close();
    }
  });

  it('a run whose server died mid-batch re-attaches to its batch when resumed: no second batch is created', async () => {
    fake.batches.configure({ pollsToComplete: 1_000_000 });
    const { evalExecutor } = server.server;
    const created = fake.batches.created();
    const { run } = await cora.call(evalApi.create, { body: { engine: 'openai', model: 'gpt-4o-mini', mode: 'no_image', batch: true } });
    await expect.poll(async () => (await getRun(run.id)).batch_progress?.state, { timeout: 30_000 }).toBe('in_progress');
    expect(fake.batches.created()).toBe(created + 1);
    // The server goes away while it waits; its process is then gone (a pid that has exited).
    await evalExecutor.shutdown();
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    setJobOwner(db(), 'eval_runs', run.id, { pid: deadPid, host: hostname() });
    expect((await getRun(run.id)).status).toBe('running');

    fake.batches.configure({ pollsToComplete: 1 });
    expect(evalExecutor.resumeOrphans()).toEqual([run.id]);
    await evalExecutor.start(run.id);
    const resumed = await getRun(run.id);
    expect(resumed).toMatchObject({ status: 'done', items_answered: items.length, batch_progress: { state: 'done' } });
    expect(fake.batches.created()).toBe(created + 1);
  });

  it('cancelling a batch run cancels its batch at the provider', async () => {
    fake.batches.configure({ pollsToComplete: 1_000_000 });
    const { run } = await cora.call(evalApi.create, { body: { engine: 'openai', model: 'gpt-4o-mini', mode: 'no_image', batch: true } });
    await expect.poll(async () => (await getRun(run.id)).batch_progress?.state, { timeout: 30_000 }).toBe('in_progress');
    const cancelled = (await cora.call(evalApi.cancel, { params: { id: run.id } })).run;
    expect(cancelled.status).toBe('cancelled');
    await expect.poll(async () => (await getRun(run.id)).batch_progress?.state).toBe('cancelled');
    expect(fake.requests.some((r) => r.method === 'POST' && /^\/v1\/batches\/[^/]+\/cancel$/.test(r.path))).toBe(true);
  });

  it('refuses the batch box for the factual baseline, naming the field', async () => {
    const res = await cora.send(evalApi.create, { body: { engine: 'factual-baseline', mode: 'hqa', batch: true } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('batch');
  });
});
