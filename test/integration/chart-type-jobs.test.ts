import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAndMigrate, type Db } from '../../db/database';
import {
  chartTypeJobsApi,
  chartTypesApi,
  ChartTypeJobListResponseSchema,
  ChartTypeJobPlanSchema,
  ChartTypeJobResponseSchema,
  TriageResponseSchema,
  type ChartTypeJob,
} from '../../shared/api/chart-types';
import { chartsApi, UpdateChartResponseSchema } from '../../shared/api/charts';
import { fillPath } from '../../shared/api/endpoint';
import { CHART_TYPES } from '../../shared/domain/chart-types';
import { ErrorBodySchema } from '../../shared/errors';
import { ServerEventSchemas } from '../../shared/events';
import { DEFAULT_VISION_MAX_SIDE } from '../../shared/settings';
import { prepareVisionImage } from '../../server/llm/vision-image';
import { getChartImage, getChartSummary } from '../../server/charts/chart-queries';
import { importSplit } from '../../server/import/import-split';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { hangReply, jsonReply, startFakeOpenAI, textReply, type FakeChatRequest, type FakeOpenAI } from '../support/fake-openai';
import { TestClient } from '../support/http-client';
import { CHARTQA_EXTRA, CHARTQA_SAMPLE } from '../support/paths';
import { waitFor } from '../support/wait-for';
import { zipFolder } from '../support/zip-folder';
import { startServerProcess, stopProcess } from '../support/server-process';
import { SignedInUsers } from '../support/signed-in-users';
import { connectAs, recordEvents } from '../support/socket-client';
import { startTestServer } from '../support/test-server';

/** The real ChartQA extra split: 20 charts with their PNGs, no annotations, one question each naming no marks. */
const SPLIT = 'train';

const VERTICAL = { orientation: 'vertical', stacking: 'none', chart_type: 'vertical_bar' };
const HORIZONTAL = { orientation: 'horizontal', stacking: 'none', chart_type: 'horizontal_bar' };
/** A reply its own hint contradicts: no answer, sent back once as a repair turn. */
const CONTRADICTED = { orientation: 'horizontal', stacking: 'none', chart_type: 'vertical_bar' };

const dir = mkdtempSync(join(tmpdir(), 'hqa-chart-type-jobs-'));
let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

function imagePart(chat: FakeChatRequest): { url: string; detail?: string } {
  const user = chat.messages[1]?.content;
  const part = Array.isArray(user) ? (user.find((p) => p.type === 'image_url') as { image_url?: { url: string; detail?: string } } | undefined) : undefined;
  return part?.image_url ?? { url: '' };
}
const sentImage = (chat: FakeChatRequest) => imagePart(chat).url.replace(/^data:image\/\w+;base64,/, '');
const chartIds = (db: Db) => (db.prepare('SELECT id FROM charts WHERE split = ? ORDER BY id').all(SPLIT) as { id: number }[]).map((r) => r.id);
/** The chart's image as the reader sends it: scaled for low detail by the one vision-image helper. */
const imageOf = async (db: Db, id: number) => {
  const png = getChartImage(db, id)?.png;
  if (!png) return '';
  return (await prepareVisionImage(png, { maxSide: DEFAULT_VISION_MAX_SIDE, detail: 'low' })).url.replace(/^data:image\/\w+;base64,/, '');
};
const typeCalls = (db: Db) => listLlmCalls(db).filter((c) => c.purpose === 'chart_type');

function waitForJob(client: TestClient, id: number, until: (job: ChartTypeJob) => boolean): Promise<ChartTypeJob> {
  return waitFor(
    `chart-type job ${id} to get there`,
    async () => ChartTypeJobListResponseSchema.parse((await client.get(chartTypeJobsApi.list.path)).body).jobs.find((j) => j.id === id),
    (job): job is ChartTypeJob => job !== undefined && until(job),
  );
}

describe('a vision job over a split’s unconfirmed chart types', () => {
  it('asks once per chart (the image at low detail, strict output of the type enum), records each call with the chart and its cost, confirms the answers, and leaves a chart it could not read unconfirmed with the reason', async () => {
    const server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    try {
      const { db } = server.server.ctx;
      importSplit(db, CHARTQA_EXTRA);
      const ids = chartIds(db);
      expect(ids).toHaveLength(20);
      const [broken, repaired] = ids as [number, number];
      const brokenImage = await imageOf(db, broken);
      const repairedImage = await imageOf(db, repaired);
      // One chart only ever gets a contradiction (it fails after its repair turn); one is repaired; the rest answer at once.
      let repairedAsked = 0;
      fake.requests.length = 0;
      fake.setDefault((chat) => {
        const image = sentImage(chat);
        if (image === brokenImage) return jsonReply(CONTRADICTED);
        if (image === repairedImage) return jsonReply(++repairedAsked === 1 ? CONTRADICTED : HORIZONTAL);
        return jsonReply(VERTICAL);
      });

      const users = new SignedInUsers(server);
      const curator = (await users.create('curator')).client;
      const reviewer = (await users.create('reviewer')).client;
      expect(ChartTypeJobPlanSchema.parse((await curator.get(`${chartTypeJobsApi.plan.path}?split=${SPLIT}`)).body)).toEqual({ charts: 20, model: 'gpt-4o', unavailable: null });
      expect((await reviewer.post(chartTypeJobsApi.create.path, { split: SPLIT })).status).toBe(403);

      const socket = await connectAs(server.url, reviewer);
      const pushed = recordEvents(socket, 'chart_type_job.progressed');
      try {
        const created = await curator.post(chartTypeJobsApi.create.path, { split: SPLIT });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const { job } = ChartTypeJobResponseSchema.parse(created.body);
        expect(job).toMatchObject({ split: SPLIT, model: 'gpt-4o', tasks_total: 20 });
        const audit = db.prepare("SELECT action, details FROM audit_log WHERE target_type = 'chart_type_job' AND target_id = ?").all(String(job.id)) as { action: string; details: string }[];
        expect(audit.map((row) => [row.action, JSON.parse(row.details) as unknown])).toEqual([['chart_type_job.started', { model: 'gpt-4o', split: SPLIT, charts: 20 }]]);

        const done = await waitForJob(reviewer, job.id, (j) => j.status === 'done');
        expect(done).toMatchObject({ tasks_total: 20, tasks_done: 19, tasks_failed: 1, priced: true });
        expect(done.failures).toEqual([{ chart_id: broken, chart: `${SPLIT}/multi_col_101207.png`, kind: 'invalid', reason: expect.stringMatching(/^schema-invalid after repair: chart_type: "vertical_bar" has vertical bars, but orientation is "horizontal"/) as unknown }]);

        // What went out: every chart's own image at low detail, the type enum as strict output, temperature 0.
        const chats = fake.requests.flatMap((r) => (r.chat ? [r.chat] : []));
        expect(chats).toHaveLength(22);
        for (const id of ids) {
          const image = await imageOf(db, id);
          expect(chats.filter((chat) => sentImage(chat) === image)).toHaveLength(id === broken || id === repaired ? 2 : 1);
        }
        for (const chat of chats) {
          expect(imagePart(chat).detail).toBe('low');
          expect(chat).toMatchObject({ model: 'gpt-4o', temperature: 0, response_format: { type: 'json_schema', json_schema: { name: 'ChartTypeAnswer', strict: true } } });
        }
        const typeEnum = z.object({ json_schema: z.object({ schema: z.object({ properties: z.object({ chart_type: z.object({ enum: z.array(z.string()) }) }) }) }) });
        expect(typeEnum.parse(chats[0]?.response_format).json_schema.schema.properties.chart_type.enum).toEqual([...CHART_TYPES]);

        // Each request is a llm_calls row naming its chart, priced by the settings' price table; the job's cost is theirs.
        const calls = typeCalls(db);
        expect(calls).toHaveLength(22);
        expect(new Set(calls.map((c) => c.chart_id))).toEqual(new Set(ids));
        expect(calls.filter((c) => c.chart_id === broken).map((c) => c.outcome)).toEqual(['invalid', 'invalid']);
        expect(calls.every((c) => c.template === 'chart-type' && c.cost > 0)).toBe(true);
        expect(done.cost).toBeCloseTo(calls.reduce((sum, c) => sum + c.cost, 0), 10);
        expect(done.attempts).toBe(22);

        // The answers are the charts' types now, confirmed by the vision model; the failed chart keeps its table's guess, unconfirmed.
        expect(getChartSummary(db, repaired)).toMatchObject({ chart_type: 'horizontal_bar', type_source: 'inferred', type_evidence: 'vision', type_confirmed: true });
        for (const id of ids.slice(2)) expect(getChartSummary(db, id)).toMatchObject({ chart_type: 'vertical_bar', type_evidence: 'vision', type_confirmed: true });
        expect(getChartSummary(db, broken)).toMatchObject({ chart_type: 'line', type_evidence: null, type_confirmed: false });
        const triage = TriageResponseSchema.parse((await curator.get(`${chartTypesApi.triage.path}?split=${SPLIT}`)).body);
        expect(triage.charts.map((c) => [c.id, c.vision_failure])).toEqual([[broken, expect.stringMatching(/^invalid: schema-invalid after repair/) as unknown]]);
        expect(triage.counts).toEqual({ unconfirmed: 1, annotation: 0, questions: 0, vision: 19, curator: 0 });

        await waitFor('the push of the done job', () => pushed.some((p) => ServerEventSchemas['chart_type_job.progressed'].parse(p).job.status === 'done'));
        expect(pushed.map((p) => ServerEventSchemas['chart_type_job.progressed'].parse(p).job.id).every((id) => id === job.id)).toBe(true);

        // The next job asks only about what is left; with nothing left it is refused by name.
        fake.setDefault(() => jsonReply({ orientation: 'none', stacking: 'none', chart_type: 'line' }));
        const again = ChartTypeJobResponseSchema.parse((await curator.post(chartTypeJobsApi.create.path, { split: SPLIT })).body).job;
        expect(again.tasks_total).toBe(1);
        await waitForJob(reviewer, again.id, (j) => j.status === 'done');
        expect(getChartSummary(db, broken)).toMatchObject({ chart_type: 'line', type_evidence: 'vision', type_confirmed: true });
        const none = await curator.post(chartTypeJobsApi.create.path, { split: SPLIT });
        expect(none.status).toBe(409);
        expect(ErrorBodySchema.parse(none.body).error.message).toMatch(/^no chart of split train has an unconfirmed type/);

        // A re-import of the same files keeps the vision model's types: the table only guesses.
        importSplit(db, CHARTQA_EXTRA);
        expect(getChartSummary(db, repaired)).toMatchObject({ chart_type: 'horizontal_bar', type_evidence: 'vision' });
      } finally {
        socket.disconnect();
      }
    } finally {
      await server.close();
      fake.setDefault(() => textReply('unscripted'));
    }
  }, 60_000);

  it('keeps a type a curator decided while its call was out, and cancels what is left', async () => {
    const server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    try {
      const { db } = server.server.ctx;
      importSplit(db, CHARTQA_EXTRA);
      const [first] = chartIds(db) as [number];
      const firstImage = await imageOf(db, first);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      fake.requests.length = 0;
      fake.setDefault(async (chat) => {
        if (sentImage(chat) !== firstImage) return hangReply();
        await held;
        return jsonReply(VERTICAL);
      });
      const curator = (await new SignedInUsers(server).create('curator')).client;
      const { job } = ChartTypeJobResponseSchema.parse((await curator.post(chartTypeJobsApi.create.path, { split: SPLIT })).body);
      await waitFor('the first chart’s call to reach the model', () => fake.requests.some((r) => r.chat && sentImage(r.chat) === firstImage));
      const decided = await curator.patch(fillPath(chartsApi.update.path, { id: first }), { chart_type: 'line' });
      expect(UpdateChartResponseSchema.parse(decided.body).chart).toMatchObject({ chart_type: 'line', type_source: 'curator', type_confirmed: true });
      release();
      await waitFor('the first chart’s task to be skipped', () => (db.prepare("SELECT status FROM chart_type_tasks WHERE job_id = ? AND chart_id = ?").get(job.id, first) as { status: string }).status === 'skipped');
      expect(getChartSummary(db, first)).toMatchObject({ chart_type: 'line', type_source: 'curator' });

      const cancelled = ChartTypeJobResponseSchema.parse((await curator.post(fillPath(chartTypeJobsApi.cancel.path, { id: job.id }))).body).job;
      expect(cancelled.status).toBe('cancelled');
      await waitFor('no task of the job to be running', () => (db.prepare("SELECT COUNT(*) AS n FROM chart_type_tasks WHERE job_id = ? AND status = 'running'").get(job.id) as { n: number }).n === 0);
      // The charts whose calls were cut off are still unconfirmed: nothing was stored for them.
      expect(TriageResponseSchema.parse((await curator.get(chartTypesApi.triage.path)).body).counts).toMatchObject({ unconfirmed: 19, curator: 1, vision: 0 });
      expect((await curator.post(fillPath(chartTypeJobsApi.cancel.path, { id: job.id }))).status).toBe(409);
    } finally {
      await server.close();
      fake.setDefault(() => textReply('unscripted'));
    }
  }, 60_000);

  it('without an endpoint names what is missing, starts no job and leaves the types unconfirmed', async () => {
    const server = await startTestServer({ demo: false });
    try {
      importSplit(server.server.ctx.db, CHARTQA_EXTRA);
      const curator = (await new SignedInUsers(server).create('curator')).client;
      const plan = ChartTypeJobPlanSchema.parse((await curator.get(chartTypeJobsApi.plan.path)).body);
      expect(plan).toMatchObject({ charts: 20, model: null, unavailable: expect.stringMatching(/needs a vision model: set OPENAI_API_KEY/) as unknown });
      const refused = await curator.post(chartTypeJobsApi.create.path, {});
      expect(refused.status).toBe(409);
      expect(TriageResponseSchema.parse((await curator.get(chartTypesApi.triage.path)).body).counts.unconfirmed).toBe(20);
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe('a split uploaded from the browser', () => {
  it('with a vision model configured, has its unconfirmed types asked about at once; a split without PNGs starts no job', async () => {
    const server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    try {
      fake.setDefault(() => jsonReply(VERTICAL));
      const curator = await new SignedInUsers(server).create('curator');
      const upload = async (dir: string, filename: string) => {
        const response = await fetch(`${server.url}/api/imports?filename=${filename}`, {
          method: 'POST',
          headers: { cookie: curator.client.cookie, 'content-type': 'application/zip' },
          body: new Uint8Array(await zipFolder(dir, { top: filename.replace(/\.zip$/, '') })),
        });
        expect(response.status).toBe(200);
      };
      await upload(CHARTQA_SAMPLE, 'chartqa-sample.zip');
      expect(ChartTypeJobListResponseSchema.parse((await curator.client.get(chartTypeJobsApi.list.path)).body).jobs).toEqual([]);

      await upload(CHARTQA_EXTRA, 'chartqa-extra.zip');
      const { jobs } = ChartTypeJobListResponseSchema.parse((await curator.client.get(chartTypeJobsApi.list.path)).body);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ split: SPLIT, tasks_total: 20, created_by: curator.username });
      const done = await waitForJob(curator.client, jobs[0]?.id ?? 0, (j) => j.status === 'done');
      expect(done).toMatchObject({ tasks_done: 20, tasks_failed: 0 });
      expect(TriageResponseSchema.parse((await curator.client.get(chartTypesApi.triage.path)).body).counts).toMatchObject({ unconfirmed: 0, vision: 20 });
    } finally {
      await server.close();
      fake.setDefault(() => textReply('unscripted'));
    }
  }, 60_000);
});

describe('a vision job survives SIGKILL', () => {
  it('resumes at the next start and never asks again about a chart it answered', async () => {
    const dbPath = join(dir, 'killed.sqlite');
    const seeded = openAndMigrate(dbPath);
    importSplit(seeded, CHARTQA_EXTRA);
    const ids = chartIds(seeded);
    const images = new Map(await Promise.all(ids.map(async (id) => [await imageOf(seeded, id), id] as const)));
    seeded.close();

    // The first four requests answer; later ones hang until the server is killed.
    let answered = 0;
    let killed = false;
    fake.requests.length = 0;
    fake.setDefault(() => (killed || ++answered <= 4 ? jsonReply(VERTICAL) : hangReply()));
    // Each start without the review warm-up (a second or two of claims before it listens): not what a job's survival depends on.
    const env = { HQA_DB: dbPath, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, HQA_WARM_UP: 'false' };
    const first = await startServerProcess(env);
    const password = /password\s+(\S+)\s/.exec(first.output())?.[1] ?? '';
    const client = new TestClient(first.url);
    await client.login('admin', password);
    const created = await client.post(chartTypeJobsApi.create.path, { split: SPLIT });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { job } = ChartTypeJobResponseSchema.parse(created.body);
    await waitForJob(client, job.id, (j) => j.tasks_done === 4);
    await waitFor('eight calls at the model', () => fake.requests.filter((r) => r.chat).length === 8);
    expect(await stopProcess(first.child, 'SIGKILL')).toBeNull();
    killed = true;

    const atKill = openAndMigrate(dbPath);
    const answeredBefore = ids.filter((id) => getChartSummary(atKill, id)?.type_evidence === 'vision');
    atKill.close();
    expect(answeredBefore).toHaveLength(4);

    const second = await startServerProcess(env);
    try {
      const again = new TestClient(second.url);
      again.cookie = client.cookie;
      expect(await waitForJob(again, job.id, (j) => j.status === 'done')).toMatchObject({ tasks_total: 20, tasks_done: 20, tasks_failed: 0 });
    } finally {
      await stopProcess(second.child, 'SIGTERM');
    }
    const asked = fake.requests.flatMap((r) => (r.chat ? [images.get(sentImage(r.chat))] : []));
    // The answered four once each; the four cut off by the kill once before it and once after; the rest once.
    const cutOff = new Set(asked.slice(4, 8));
    for (const id of ids) expect(asked.filter((a) => a === id), `chart ${id}`).toHaveLength(cutOff.has(id) ? 2 : 1);
    const db = openAndMigrate(dbPath);
    try {
      for (const id of ids) expect(getChartSummary(db, id)).toMatchObject({ chart_type: 'vertical_bar', type_evidence: 'vision' });
    } finally {
      db.close();
      fake.setDefault(() => textReply('unscripted'));
    }
  }, 120_000);
});
