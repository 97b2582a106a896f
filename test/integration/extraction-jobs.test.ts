import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { extractionJobsApi, ExtractionJobListResponseSchema, ExtractionJobResponseSchema, ExtractionPlanSchema, type ExtractionJob } from '../../shared/api/tables';
import { fillPath } from '../../shared/api/endpoint';
import { ServerEventSchemas } from '../../shared/events';
import { ErrorBodySchema } from '../../shared/errors';
import { DEFAULT_VISION_MAX_SIDE } from '../../shared/settings';
import { estimateImageTokens } from '../../server/llm/image-tokens';
import { fitWithin, prepareVisionImage } from '../../server/llm/vision-image';
import { getChartImage } from '../../server/charts/chart-queries';
import { importFolder } from '../../server/import/import-folder';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { getChartTable } from '../../server/tables/table-queries';
import { hangReply, jsonReply, slowReply, startFakeOpenAI, textReply, type FakeChatRequest, type FakeOpenAI } from '../support/fake-openai';
import { TestClient } from '../support/http-client';
import { startServerProcess, stopProcess } from '../support/server-process';
import { SignedInUsers } from '../support/signed-in-users';
import { connectAs, recordEvents } from '../support/socket-client';
import { startTestServer } from '../support/test-server';
import { waitFor } from '../support/wait-for';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';

/** The real MultiChartQA sample: six charts published as images only, no tables. */
const SPLIT = 'multichartqa';

const TABLE_REPLY = {
  title: 'Daily cases',
  label_header: 'Year',
  series: [{ name: 'Cases', unit: null }],
  rows: [
    { label: '2020', values: [12.5] },
    { label: '2021', values: [20] },
  ],
};

const dir = mkdtempSync(join(tmpdir(), 'hqa-extraction-jobs-'));
let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const imageUrl = (chat: FakeChatRequest) => {
  const user = chat.messages[1]?.content;
  const part = Array.isArray(user) ? (user.find((p) => p.type === 'image_url') as { image_url?: { url?: string } } | undefined) : undefined;
  return part?.image_url?.url ?? '';
};
const sentImage = (chat: FakeChatRequest) => imageUrl(chat).replace(/^data:image\/\w+;base64,/, '');
const chartIds = (db: Db) => (db.prepare('SELECT id FROM charts WHERE split = ? ORDER BY id').all(SPLIT) as { id: number }[]).map((r) => r.id);
/** The chart's image as extraction sends it (the default size and detail), by the one vision-image helper. */
const imageOf = async (db: Db, id: number) => {
  const png = getChartImage(db, id)?.png;
  if (!png) return '';
  return (await prepareVisionImage(png, { maxSide: DEFAULT_VISION_MAX_SIDE, detail: 'high' })).url.replace(/^data:image\/\w+;base64,/, '');
};
const extractionCost = (db: Db) => listLlmCalls(db).filter((c) => c.purpose === 'extraction').reduce((sum, c) => sum + c.cost, 0);

function waitForJob(client: TestClient, id: number, until: (job: ExtractionJob) => boolean): Promise<ExtractionJob> {
  return waitFor(
    `extraction job ${id} to get there`,
    async () => ExtractionJobListResponseSchema.parse((await client.get(extractionJobsApi.list.path)).body).jobs.find((j) => j.id === id),
    (job): job is ExtractionJob => job !== undefined && until(job),
  );
}

describe('an extraction job over a split', () => {
  it('reads every chart without a table (its image sent), pushes progress to done, names a failed chart with its reason and records the cost of its calls', async () => {
    const server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    try {
      const { db } = server.server.ctx;
      importFolder(db, MULTICHARTQA_DATA, { format: 'multichartqa', split: SPLIT });
      const ids = chartIds(db);
      expect(ids).toHaveLength(6);
      const [broken] = ids as [number];
      const brokenImage = await imageOf(db, broken);
      // The first chart's replies are never a table: it fails after its repair turn; the others read.
      fake.requests.length = 0;
      fake.setDefault((chat) => (sentImage(chat) === brokenImage ? textReply('{"title": ') : jsonReply(TABLE_REPLY)));

      const users = new SignedInUsers(server);
      const curator = (await users.create('curator')).client;
      const reviewer = (await users.create('reviewer')).client;

      const plan = ExtractionPlanSchema.parse((await curator.get(`${extractionJobsApi.plan.path}?split=${SPLIT}`)).body);
      expect(plan).toEqual({ charts: 6, model: 'gpt-4o', unavailable: null, skipped_with_table: 0, skipped_without_image: 0 });
      expect((await reviewer.post(extractionJobsApi.create.path, { split: SPLIT })).status).toBe(403);

      const socket = await connectAs(server.url, reviewer);
      const pushed = recordEvents(socket, 'extraction.progressed');
      try {
        const created = await curator.post(extractionJobsApi.create.path, { split: SPLIT });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const { job } = ExtractionJobResponseSchema.parse(created.body);
        expect(job).toMatchObject({ split: SPLIT, chart_type: null, force: false, model: 'gpt-4o', tasks_total: 6 });
        // Written with the job, by the curator who started it.
        const audit = db.prepare("SELECT action, details FROM audit_log WHERE target_type = 'extraction_job' AND target_id = ?").all(String(job.id)) as { action: string; details: string }[];
        expect(audit.map((row) => [row.action, JSON.parse(row.details) as unknown])).toEqual([['extraction.started', { model: 'gpt-4o', split: SPLIT, chart_type: null, force: false, charts: 6 }]]);

        const done = await waitForJob(reviewer, job.id, (j) => j.status === 'done');
        expect(done).toMatchObject({ tasks_total: 6, tasks_done: 5, tasks_failed: 1, priced: true });
        expect(done.failures).toEqual([
          { chart_id: broken, chart: expect.stringMatching(new RegExp(`^${SPLIT}/`)) as unknown, kind: 'invalid', reason: expect.stringMatching(/^invalid JSON after repair/) as unknown },
        ]);
        // Cost: what the extraction calls recorded, priced by the settings' price table.
        expect(done.cost).toBeGreaterThan(0);
        expect(done.cost).toBeCloseTo(extractionCost(db), 10);
        expect(done.attempts).toBe(listLlmCalls(db).length);
        // The images' share, estimated: each request carried a 3400×2400 chart scaled to 1568×1107,
        // which gpt-4o reads at high detail as 1088×768, 3×2 tiles of 170 tokens plus 85.
        const perImage = estimateImageTokens('gpt-4o', fitWithin({ width: 3400, height: 2400 }, DEFAULT_VISION_MAX_SIDE), 'high');
        expect(perImage).toBe(85 + 6 * 170);
        expect(done.image_tokens).toBe((perImage ?? 0) * done.attempts);
        expect(done.image_cost).toBeCloseTo(((perImage ?? 0) * done.attempts * 2.5) / 1e6, 10);

        // Every chart's image went out; each stored chart was asked once, the broken one twice (its repair).
        const sent = fake.requests.flatMap((r) => (r.chat ? [sentImage(r.chat)] : []));
        for (const id of ids) {
          const image = await imageOf(db, id);
          expect(sent.filter((sentOne) => sentOne === image)).toHaveLength(id === broken ? 2 : 1);
        }
        for (const id of ids.slice(1)) expect(getChartTable(db, id)).toMatchObject({ table_source: 'extracted', table_confirmed: false, title: 'Daily cases' });
        expect(getChartTable(db, broken)?.data_table).toBeNull();

        // Progress went out live, ending with the finished job.
        await waitFor('the push of the done job', () => pushed.some((p) => ServerEventSchemas['extraction.progressed'].parse(p).job.status === 'done'));
        const jobs = pushed.map((p) => ServerEventSchemas['extraction.progressed'].parse(p).job);
        expect(jobs.every((j) => j.id === job.id)).toBe(true);
        expect(jobs.at(-1)).toMatchObject({ status: 'done', tasks_done: 5, tasks_failed: 1 });

        // What is left is only the failed chart, and a job over nothing is refused by name.
        expect(ExtractionPlanSchema.parse((await curator.get(`${extractionJobsApi.plan.path}?split=${SPLIT}`)).body)).toMatchObject({ charts: 1, skipped_with_table: 5 });
        fake.setDefault(() => jsonReply(TABLE_REPLY));
        const again = ExtractionJobResponseSchema.parse((await curator.post(extractionJobsApi.create.path, { split: SPLIT })).body).job;
        await waitForJob(reviewer, again.id, (j) => j.status === 'done');
        const none = await curator.post(extractionJobsApi.create.path, { split: SPLIT });
        expect(none.status).toBe(409);
        expect(ErrorBodySchema.parse(none.body).error.message).toMatch(/^no chart of split multichartqa is waiting for a table/);
      } finally {
        socket.disconnect();
      }
    } finally {
      await server.close();
      fake.setDefault(() => textReply('unscripted'));
    }
  }, 60_000);

  it('pauses (the call in flight stops, its chart waits), resumes and cancels; force reads unconfirmed extractions again', async () => {
    const server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    try {
      const { db } = server.server.ctx;
      importFolder(db, MULTICHARTQA_DATA, { format: 'multichartqa', split: SPLIT });
      const curator = (await new SignedInUsers(server).create('curator')).client;
      let hang = true;
      fake.setDefault(() => (hang ? hangReply() : slowReply(20, jsonReply(TABLE_REPLY))));
      const { job } = ExtractionJobResponseSchema.parse((await curator.post(extractionJobsApi.create.path, { split: SPLIT })).body);
      await waitFor('four calls at the model', () => fake.requests.filter((r) => r.chat).length >= 4);
      const paused = await curator.post(fillPath(extractionJobsApi.pause.path, { id: job.id }));
      expect(ExtractionJobResponseSchema.parse(paused.body).job.status).toBe('paused');
      await waitFor('no task of the job to be running', () => (db.prepare("SELECT COUNT(*) AS n FROM extraction_tasks WHERE job_id = ? AND status = 'running'").get(job.id) as { n: number }).n === 0);
      expect(db.prepare('SELECT status, COUNT(*) AS n FROM extraction_tasks WHERE job_id = ? GROUP BY status').all(job.id)).toEqual([{ status: 'pending', n: 6 }]);
      expect((await curator.post(fillPath(extractionJobsApi.pause.path, { id: job.id }))).status).toBe(409);

      hang = false;
      expect((await curator.post(fillPath(extractionJobsApi.resume.path, { id: job.id }))).status).toBe(200);
      const done = await waitForJob(curator, job.id, (j) => j.status === 'done');
      expect(done).toMatchObject({ tasks_done: 6, tasks_failed: 0 });
      expect((await curator.post(fillPath(extractionJobsApi.cancel.path, { id: job.id }))).status).toBe(409);

      // force: the six unconfirmed extractions are read again; cancelled at once, it stops.
      hang = true;
      const plan = ExtractionPlanSchema.parse((await curator.get(`${extractionJobsApi.plan.path}?split=${SPLIT}&force=true`)).body);
      expect(plan.charts).toBe(6);
      const forced = ExtractionJobResponseSchema.parse((await curator.post(extractionJobsApi.create.path, { split: SPLIT, force: true })).body).job;
      expect(forced).toMatchObject({ force: true, tasks_total: 6 });
      // Its charts are its own while it is unfinished: another job would find none.
      expect(ExtractionPlanSchema.parse((await curator.get(`${extractionJobsApi.plan.path}?split=${SPLIT}&force=true`)).body).charts).toBe(0);
      const cancelled = ExtractionJobResponseSchema.parse((await curator.post(fillPath(extractionJobsApi.cancel.path, { id: forced.id }))).body).job;
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.finished_at).not.toBeNull();
    } finally {
      await server.close();
      fake.setDefault(() => textReply('unscripted'));
    }
  }, 60_000);
});

describe('an extraction job survives SIGKILL', () => {
  it('resumes at the next start and never asks again for a chart it stored', async () => {
    const dbPath = join(dir, 'killed.sqlite');
    const seeded = openAndMigrate(dbPath);
    importFolder(seeded, MULTICHARTQA_DATA, { format: 'multichartqa', split: SPLIT });
    const ids = chartIds(seeded);
    const images = new Map(await Promise.all(ids.map(async (id) => [await imageOf(seeded, id), id] as const)));
    seeded.close();

    // Charts 1–4 (read four at a time) are answered; the later ones hang until the server is killed.
    // Decided by the chart each request shows, not by arrival order, which concurrency does not fix.
    const answeredCharts = new Set(ids.slice(0, 4));
    let killed = false;
    fake.requests.length = 0;
    fake.setDefault((chat) => (killed || answeredCharts.has(images.get(sentImage(chat)) ?? -1) ? jsonReply(TABLE_REPLY) : hangReply()));
    // Each start without the review warm-up (a second or two of claims before it listens): not what a job's survival depends on.
    const env = { HQA_DB: dbPath, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, HQA_WARM_UP: 'false' };
    const first = await startServerProcess(env);
    const password = /password\s+(\S+)\s/.exec(first.output())?.[1] ?? '';
    const client = new TestClient(first.url);
    await client.login('admin', password);
    const created = await client.post(extractionJobsApi.create.path, { split: SPLIT });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { job } = ExtractionJobResponseSchema.parse(created.body);
    const midway = await waitForJob(client, job.id, (j) => j.tasks_done === 4);
    expect(midway.status).toBe('running');
    await waitFor('six calls at the model', () => fake.requests.filter((r) => r.chat).length === 6);
    expect(await stopProcess(first.child, 'SIGKILL')).toBeNull();
    killed = true;

    const atKill = openAndMigrate(dbPath);
    const storedBefore = ids.filter((id) => getChartTable(atKill, id)?.data_table !== null);
    atKill.close();
    expect(storedBefore).toEqual(ids.slice(0, 4));

    const second = await startServerProcess(env);
    try {
      const again = new TestClient(second.url);
      again.cookie = client.cookie;
      const done = await waitForJob(again, job.id, (j) => j.status === 'done');
      expect(done).toMatchObject({ tasks_total: 6, tasks_done: 6, tasks_failed: 0 });
    } finally {
      await stopProcess(second.child, 'SIGTERM');
    }
    const asked = fake.requests.flatMap((r) => (r.chat ? [images.get(sentImage(r.chat))] : []));
    // The stored four once each; the two cut off by the kill once before it and once after.
    for (const id of ids) expect(asked.filter((a) => a === id)).toHaveLength(storedBefore.includes(id) ? 1 : 2);
    const db = openAndMigrate(dbPath);
    try {
      for (const id of ids) expect(getChartTable(db, id)).toMatchObject({ table_source: 'extracted', table_confirmed: false });
      const row = db.prepare('SELECT cost, prompt_tokens FROM extraction_jobs WHERE id = ?').get(job.id) as { cost: number; prompt_tokens: number };
      // The hung calls were never answered, so the job's usage is exactly its recorded calls'.
      expect(row.cost).toBeGreaterThan(0);
      expect(row.cost).toBeCloseTo(extractionCost(db), 10);
    } finally {
      db.close();
      fake.setDefault(() => textReply('unscripted'));
    }
  }, 120_000);
});
