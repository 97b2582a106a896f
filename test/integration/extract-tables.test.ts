import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { tablesApi } from '../../shared/api/tables';
import { fillPath } from '../../shared/api/endpoint';
import { ErrorBodySchema } from '../../shared/errors';
import { SettingsSchema } from '../../shared/settings';
import { getChartImage } from '../../server/charts/chart-queries';
import { loadConfig } from '../../server/config';
import { importFolder } from '../../server/import/import-folder';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { providersFor } from '../../server/llm/model-roles';
import { createTableExtractor } from '../../server/tables/extract-table';
import { runExtractionJob } from '../../server/tables/extract-tables-run';
import type { TableExtractor } from '../../server/tables/extract-table';
import type { ExtractionScope } from '../../server/tables/table-queries';
import { cliContext } from '../../server/cli/cli-context';
import pino from 'pino';
import { getChartTable } from '../../server/tables/table-queries';
import { listExtractionJobs } from '../../server/tables/extraction-job-queries';
import { saveCuratorTable } from '../../server/tables/table-service';
import { DomainEvents } from '../../server/events/event-bus';

const NO_SUBSCRIBERS = (db: ConstructorParameters<typeof DomainEvents>[0]) => new DomainEvents(db, console);
import { runCli } from '../support/cli';
import { hangReply, jsonReply, rateLimitReply, startFakeOpenAI, textReply, type FakeChatRequest, type FakeOpenAI } from '../support/fake-openai';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';
import { SignedInUsers } from '../support/signed-in-users';
import { startTestServer } from '../support/test-server';

/** The real MultiChartQA sample: charts published as images only, no tables. */
const SPLIT = 'multichartqa';
const MODEL = 'vision-test';
const PRICE = { input_per_mtok: 2.5, output_per_mtok: 10 };

/** What a model reads off a two-series chart. */
const TABLE_REPLY = {
  title: 'Daily cases',
  label_header: 'Year',
  series: [
    { name: 'Germany', unit: 'cases' },
    { name: 'France', unit: null },
  ],
  rows: [
    { label: '2020', values: [12.5, 3] },
    { label: '2021', values: [20, null] },
  ],
};
/** Schema-valid JSON that is no table: the second row has one value for two series. */
const ROW_TOO_SHORT = { ...TABLE_REPLY, rows: [TABLE_REPLY.rows[0], { label: '2021', values: [20] }] };

const dir = mkdtempSync(join(tmpdir(), 'hqa-extract-'));
let fake: FakeOpenAI;
let db: Db;
let dbPath: string;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  db?.close();
  dbPath = join(dir, `${Math.random().toString(36).slice(2)}.sqlite`);
  db = openAndMigrate(dbPath);
  importFolder(db, MULTICHARTQA_DATA, { format: 'multichartqa', split: SPLIT });
  fake.requests.length = 0;
});

const settings = SettingsSchema.parse({ extraction_model: MODEL, max_retries: 1, price_table: { [MODEL]: PRICE } });
const env = () => loadConfig({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url });
function extractor() {
  const { connection, model } = providersFor(settings, env()).extraction;
  if (!connection || !model) throw new Error('extraction role without a connection');
  return createTableExtractor({ db, connection, model, image: { maxSide: settings.vision_max_side, detail: settings.vision_detail }, sleep: async () => undefined });
}
/** The command line's way: an extraction job run in this process. */
const runTableExtraction = (database: Db, using: TableExtractor, scope: ExtractionScope, options: { concurrency?: number; signal?: AbortSignal } = {}) =>
  runExtractionJob(cliContext(database, env(), pino({ level: 'silent' })), scope, { extractor: using, ...options });
const chatRequests = () => fake.requests.flatMap((r) => (r.chat ? [r.chat] : []));
const chartIds = () => (db.prepare('SELECT id FROM charts WHERE split = ? ORDER BY id').all(SPLIT) as { id: number }[]).map((r) => r.id);
const imagePart = (chat: FakeChatRequest) => {
  const user = chat.messages[1]?.content;
  const part = Array.isArray(user) ? (user.find((p) => p.type === 'image_url') as { image_url?: { url?: string; detail?: string } } | undefined) : undefined;
  return { url: part?.image_url?.url ?? '', detail: part?.image_url?.detail };
};
const imageUrl = (chat: FakeChatRequest) => imagePart(chat).url;
const lastUser = (chat: FakeChatRequest) => {
  const content = chat.messages.at(-1)?.content;
  return typeof content === 'string' ? content : '';
};

describe('table extraction by a vision model', () => {
  it('sends each chart image as a base64 data URL with a json_schema response format, and stores the table as extracted, unconfirmed', async () => {
    const ids = chartIds();
    expect(ids.length).toBeGreaterThan(1);
    expect(getChartTable(db, ids[0] as number)?.data_table).toBeNull();
    fake.setDefault(() => jsonReply(TABLE_REPLY));
    const report = await runTableExtraction(db, extractor(), { split: SPLIT }, { concurrency: 2 });
    expect(report).toMatchObject({ charts: ids.length, extracted: ids.length, failed: [], skipped_with_table: 0, model: MODEL, priced: true });

    const sent = chatRequests();
    expect(sent).toHaveLength(ids.length);
    const stored = await Promise.all(ids.map(async (id) => sharp(getChartImage(db, id)?.png).metadata()));
    // The OWID charts are stored at 3400×2400, more than the vision_max_side default.
    expect(stored.every((meta) => Math.max(meta.width, meta.height) > settings.vision_max_side)).toBe(true);
    for (const chat of sent) {
      expect(chat).toMatchObject({ model: MODEL, temperature: 0, response_format: { type: 'json_schema', json_schema: { name: 'ChartDataTable', strict: true } } });
      const { url, detail } = imagePart(chat);
      expect(url).toMatch(/^data:image\/png;base64,/);
      expect(detail).toBe(settings.vision_detail);
      // The bytes sent are the chart scaled down to the setting's longest side, its aspect kept.
      const sentImage = await sharp(Buffer.from(url.replace(/^data:image\/png;base64,/, ''), 'base64')).metadata();
      expect(Math.max(sentImage.width, sentImage.height)).toBe(settings.vision_max_side);
      expect(stored.some((meta) => Math.abs(meta.width / meta.height - sentImage.width / sentImage.height) < 0.01)).toBe(true);
    }
    // Unknown to the token formulas, the test model's image tokens are not guessed.
    expect(report).toMatchObject({ image_tokens: null, image_cost: null });

    const table = getChartTable(db, ids[0] as number);
    expect(table).toMatchObject({ table_source: 'extracted', table_confirmed: false, title: 'Daily cases' });
    expect(table?.data_table).toEqual({
      label_header: 'Year',
      series: ['Germany', 'France'],
      units: ['cases', null],
      rows: [
        { label: '2020', values: [12.5, 3], raw: ['12.5', '3'] },
        { label: '2021', values: [20, null], raw: ['20', 'nan'] },
      ],
    });

    const calls = listLlmCalls(db);
    expect(calls).toHaveLength(ids.length);
    // Each call names the chart it read.
    expect(calls.map((call) => call.chart_id).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(ids);
    for (const call of calls) {
      expect(call).toMatchObject({ purpose: 'extraction', model: MODEL, template: 'extract-table', outcome: 'ok', attempt: 1 });
      expect(call.cost).toBeCloseTo((call.prompt_tokens * PRICE.input_per_mtok + call.completion_tokens * PRICE.output_per_mtok) / 1e6, 10);
      expect(call.cost).toBeGreaterThan(0);
    }
    expect(report.cost).toBeCloseTo(calls.reduce((sum, call) => sum + call.cost, 0), 10);
  });

  it('estimates the images’ tokens by the model’s encoder and costs them at its price, at the detail the settings ask', async () => {
    const qwen = 'Qwen2-VL-7B-Instruct';
    const qwenSettings = SettingsSchema.parse({ extraction_model: qwen, max_retries: 1, vision_max_side: 1120, vision_detail: 'low', price_table: { [qwen]: PRICE } });
    const { connection, model } = providersFor(qwenSettings, env()).extraction;
    if (!connection || !model) throw new Error('extraction role without a connection');
    const qwenExtractor = createTableExtractor({ db, connection, model, image: { maxSide: qwenSettings.vision_max_side, detail: qwenSettings.vision_detail }, sleep: async () => undefined });
    const id = chartIds()[0] as number;
    fake.setDefault(() => jsonReply(TABLE_REPLY));
    const report = await runTableExtraction(db, qwenExtractor, { chartId: id });
    const { url, detail } = imagePart(chatRequests()[0] as FakeChatRequest);
    expect(detail).toBe('low');
    // Low detail is read at 512 px: 3400×2400 goes out as 512×361, which smart_resize makes 504×364.
    const sentImage = await sharp(Buffer.from(url.replace(/^data:image\/png;base64,/, ''), 'base64')).metadata();
    expect([sentImage.width, sentImage.height]).toEqual([512, 361]);
    const tokens = (504 / 28) * (364 / 28);
    expect(report.image_tokens).toBe(tokens);
    expect(report.image_cost).toBeCloseTo((tokens * PRICE.input_per_mtok) / 1e6, 12);
    expect(listLlmCalls(db)[0]?.chart_id).toBe(id);
  });

  it('repairs a malformed reply once, naming the error in the follow-up, and stores the repaired table', async () => {
    const id = chartIds()[0] as number;
    fake.script(jsonReply(ROW_TOO_SHORT), jsonReply(TABLE_REPLY));
    const report = await runTableExtraction(db, extractor(), { chartId: id });
    expect(report).toMatchObject({ charts: 1, extracted: 1, failed: [], attempts: 2 });
    const [first, repair] = chatRequests();
    expect(repair?.messages).toHaveLength((first?.messages.length ?? 0) + 2);
    expect(repair?.messages.at(-2)).toMatchObject({ role: 'assistant', content: JSON.stringify(ROW_TOO_SHORT) });
    expect(lastUser(repair as FakeChatRequest)).toContain('rows.1.values: 1 values for 2 series (row "2021")');
    expect(lastUser(repair as FakeChatRequest)).toContain('ChartDataTable');
    // The image is still the one of the first request: the repair turn adds to the same conversation.
    expect(imageUrl(repair as FakeChatRequest)).toBe(imageUrl(first as FakeChatRequest));
    expect(listLlmCalls(db).map((c) => [c.attempt, c.outcome])).toEqual([[1, 'invalid'], [2, 'ok']]);
    expect(getChartTable(db, id)?.data_table?.rows).toHaveLength(2);
  });

  it('fails a chart whose reply is malformed twice, by name, leaves it without a table, and a later run asks again', async () => {
    const [id, other] = chartIds() as [number, number];
    fake.script(textReply('{"title": "x", "rows": '), jsonReply(ROW_TOO_SHORT));
    const report = await runTableExtraction(db, extractor(), { chartId: id });
    expect(report.extracted).toBe(0);
    expect(report.failed).toEqual([
      { chart_id: id, chart: expect.stringMatching(new RegExp(`^${SPLIT}/`)) as unknown, kind: 'invalid', reason: 'schema-invalid after repair: rows.1.values: 1 values for 2 series (row "2021")' },
    ]);
    expect(listLlmCalls(db).map((c) => [c.outcome, c.error?.split(':')[0]])).toEqual([['invalid', 'invalid JSON'], ['invalid', 'schema-invalid']]);
    expect(getChartTable(db, id)).toMatchObject({ data_table: null, table_source: null });

    fake.setDefault(() => jsonReply(TABLE_REPLY));
    const again = await runTableExtraction(db, extractor(), { chartId: id });
    expect(again).toMatchObject({ charts: 1, extracted: 1 });
    expect(getChartTable(db, other)?.data_table).toBeNull();
  });

  it('retries a rate-limited request, each attempt an llm_calls row', async () => {
    const id = chartIds()[0] as number;
    fake.script(rateLimitReply({ retryAfterSeconds: 0 }), jsonReply(TABLE_REPLY));
    const report = await runTableExtraction(db, extractor(), { chartId: id });
    expect(report).toMatchObject({ extracted: 1, attempts: 2 });
    expect(listLlmCalls(db).map((c) => c.outcome)).toEqual(['error', 'ok']);
  });

  it('resumes: stored tables are skipped; --force reads unconfirmed extractions again but never a curator’s or a confirmed table', async () => {
    const [a, b, c] = chartIds() as [number, number, number];
    fake.setDefault(() => jsonReply(TABLE_REPLY));
    await runTableExtraction(db, extractor(), { chartId: a });
    const resumed = await runTableExtraction(db, extractor(), { split: SPLIT });
    expect(resumed.charts).toBe(chartIds().length - 1);
    expect(resumed.skipped_with_table).toBe(1);

    saveCuratorTable(db, NO_SUBSCRIBERS(db), b, { title: null, label_header: 'Year', series: ['Cases'], rows: [{ label: '2020', cells: ['7'] }] }, null);
    const before = chatRequests().length;
    const forced = await runTableExtraction(db, extractor(), { split: SPLIT, force: true });
    expect(forced.charts).toBe(chartIds().length - 1);
    expect(forced.skipped_with_table).toBe(1);
    expect(chatRequests().length - before).toBe(chartIds().length - 1);
    expect(getChartTable(db, b)).toMatchObject({ table_source: 'curator', table_confirmed: true, data_table: { series: ['Cases'] } });
    expect(getChartTable(db, c)?.table_source).toBe('extracted');
  });
});

describe('extraction from the command line is the server’s extraction job kind', () => {
  it('runs as a job the Charts page lists; Ctrl+C cancels it with the call in flight, and the next run asks only for the rest', async () => {
    const ids = chartIds();
    // The first chart is read; the second call never answers until the run is interrupted.
    fake.script(jsonReply(TABLE_REPLY), hangReply());
    fake.setDefault(() => jsonReply(TABLE_REPLY));
    const interrupt = new AbortController();
    const hung = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (chatRequests().length >= 2) {
          clearInterval(check);
          resolve();
        }
      }, 10);
    });
    const running = runTableExtraction(db, extractor(), { split: SPLIT }, { concurrency: 1, signal: interrupt.signal });
    await hung;
    interrupt.abort();
    const stopped = await running;
    expect(stopped).toMatchObject({ charts: ids.length, extracted: 1, failed: [], cancelled: true });
    const jobs = listExtractionJobs(db, 20);
    expect(jobs.map((job) => [job.id, job.status, job.split, job.concurrency, job.tasks_done])).toEqual([[stopped.job_id, 'cancelled', SPLIT, 1, 1]]);

    const before = chatRequests().length;
    const rest = await runTableExtraction(db, extractor(), { split: SPLIT }, { concurrency: 2 });
    expect(rest).toMatchObject({ charts: ids.length - 1, extracted: ids.length - 1, skipped_with_table: 1, cancelled: false });
    expect(chatRequests().length - before).toBe(ids.length - 1);
    expect(listExtractionJobs(db, 20).map((job) => [job.id, job.status])).toEqual([
      [rest.job_id, 'done'],
      [stopped.job_id, 'cancelled'],
    ]);
  });
});

describe('hqa extract-tables', () => {
  it('extracts the split with progress on stderr and a JSON report with the cost; a second run has nothing to do', async () => {
    fake.setDefault(() => jsonReply(TABLE_REPLY));
    const count = chartIds().length;
    db.close();
    const cliEnv = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url };
    const first = await runCli(['extract-tables', '--split', SPLIT, '--json'], { dbPath, env: cliEnv });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const report = JSON.parse(first.stdout) as Record<string, unknown>;
    // The default extraction_model, priced in the default price table.
    expect(report).toMatchObject({ model: 'gpt-4o', charts: count, extracted: count, failed: [], priced: true });
    expect(report.cost).toBeGreaterThan(0);
    // gpt-4o reads each 1568×1107 image as 1088×768 at high detail: 3×2 tiles, 85 + 6 × 170 tokens.
    expect(report.image_tokens).toBe(count * (85 + 6 * 170));
    expect(report.image_cost).toBeCloseTo((count * (85 + 6 * 170) * 2.5) / 1e6, 12);

    const second = await runCli(['extract-tables', '--split', SPLIT], { dbPath, env: cliEnv });
    expect(second.status).toBe(0);
    expect(second.stderr).toBe('extract-tables: 0 of 0 charts\n');
    expect(second.stdout).toMatch(new RegExp(`^0 of 0 charts extracted with gpt-4o, 0 failed; skipped ${count} with a table, 0 without an image; 0 requests, 0 prompt \\(of which images ~0 tokens ~\\$0\\.0000\\)`));
    db = openAndMigrate(dbPath);
  });

  it('names what is missing without an endpoint', async () => {
    db.close();
    const none = await runCli(['extract-tables'], { dbPath });
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/^error: table extraction needs a vision model: set OPENAI_API_KEY/);
    db = openAndMigrate(dbPath);
  });
});

describe('the table API: extract, edit, confirm', () => {
  it('curators extract, edit and confirm a chart’s table; reviewers may only read it; a bad table is refused naming its field', async () => {
    const server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    try {
      importFolder(server.server.ctx.db, MULTICHARTQA_DATA, { format: 'multichartqa', split: SPLIT });
      const id = (server.server.ctx.db.prepare('SELECT id FROM charts ORDER BY id LIMIT 1').get() as { id: number }).id;
      const users = new SignedInUsers(server);
      const curator = (await users.create('curator')).client;
      const reviewer = (await users.create('reviewer')).client;
      const path = (e: { path: string }) => fillPath(e.path, { id });

      expect((await reviewer.post(path(tablesApi.extract))).status).toBe(403);
      fake.script(jsonReply(TABLE_REPLY));
      const extracted = await curator.post(path(tablesApi.extract));
      expect(extracted.status).toBe(200);
      expect(extracted.body).toMatchObject({ model: 'gpt-4o', attempts: 1, priced: true, table: { table_source: 'extracted', table_confirmed: false, has_image: true } });
      expect(listLlmCalls(server.server.ctx.db).map((c) => c.purpose)).toEqual(['extraction']);

      const read = await reviewer.get(path(tablesApi.get));
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ chart_id: id, table_source: 'extracted', data_table: { series: ['Germany', 'France'], units: ['cases', null] } });

      const edited = {
        title: 'Daily cases',
        label_header: 'Year',
        series: ['Germany', 'France', 'Italy'],
        rows: [
          { label: '2020', cells: ['12.5', '3', '4'] },
          { label: '2021', cells: ['20', 'nan', '5'] },
        ],
      };
      expect((await reviewer.request('PUT', path(tablesApi.save), edited)).status).toBe(403);
      expect((await reviewer.post(path(tablesApi.confirm))).status).toBe(403);

      const short = await curator.request('PUT', path(tablesApi.save), { ...edited, rows: [edited.rows[0], { label: '2021', cells: ['20'] }] });
      expect(short.status).toBe(400);
      const shortError = ErrorBodySchema.parse(short.body).error;
      expect(`${shortError.field ?? ''} ${shortError.message}`).toMatch(/rows\.1\.cells/);
      expect(shortError.message).toContain('1 cells for 3 series (row "2021")');
      const repeated = await curator.request('PUT', path(tablesApi.save), { ...edited, series: ['Germany', 'France', 'france'] });
      expect(repeated.status).toBe(400);
      expect(ErrorBodySchema.parse(repeated.body).error.message).toMatch(/series\.2.*"france" repeats series 2/);

      const saved = await curator.request('PUT', path(tablesApi.save), edited);
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ table: { table_source: 'curator', table_confirmed: true, data_table: { series: ['Germany', 'France', 'Italy'], units: ['cases', null, null] } } });

      // A second chart: its extraction confirmed as it is keeps its source.
      const other = (server.server.ctx.db.prepare('SELECT id FROM charts WHERE id > ? ORDER BY id LIMIT 1').get(id) as { id: number }).id;
      const otherPath = (e: { path: string }) => fillPath(e.path, { id: other });
      const nothing = await curator.post(otherPath(tablesApi.confirm));
      expect(nothing.status).toBe(409);
      expect(ErrorBodySchema.parse(nothing.body).error.message).toBe(`chart ${other} has no table to confirm: extract one or type it in first`);
      fake.script(jsonReply(TABLE_REPLY));
      expect((await curator.post(otherPath(tablesApi.extract))).status).toBe(200);
      const confirmed = await curator.post(otherPath(tablesApi.confirm));
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toMatchObject({ table: { table_source: 'extracted', table_confirmed: true } });
      // A confirmed table is not read again.
      const kept = await curator.post(otherPath(tablesApi.extract));
      expect(kept.status).toBe(409);
      expect(ErrorBodySchema.parse(kept.body).error.message).toMatch(/confirmed table is kept/);
    } finally {
      await server.close();
    }
  });
});
