import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ItemListResponseSchema, itemsApi } from '../../shared/api/items';
import { runsApi } from '../../shared/api/runs';
import { SaveTableResponseSchema, tablesApi } from '../../shared/api/tables';
import { ChartHqaExportV1Schema } from '../../shared/export/chart-hqa';
import { toExtractedTable } from '../../shared/table-provenance/extracted-table';
import { getChartImage } from '../../server/charts/chart-queries';
import { datasetCard } from '../../server/export/dataset-card';
import { importFolder } from '../../server/import/import-folder';
import { getSettings } from '../../server/settings/settings-queries';
import { storeExtractedTable } from '../../server/tables/table-service';
import { buildChart, buildItem, buildQa, setItemStatus } from '../support/factories';
import { hqaModel, schemaName } from '../support/fake-hqa-model';
import { startFakeOpenAI, type FakeChatRequest, type FakeOpenAI } from '../support/fake-openai';
import { searchQuery, TestClient } from '../support/http-client';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';
import { startTestServer, type TestServer } from '../support/test-server';
import { exportApi } from '../../shared/api/export';

/**
 * Items on a chart whose table a vision model extracted and no curator confirmed: generation
 * runs (the model is shown the image), the items carry `table_state: 'unconfirmed'` (the mark
 * `unverified: table not confirmed`), the list filters on it, the export says which items were
 * verified on a confirmed table, and a curator's confirmation lifts the mark.
 */

const SPLIT = 'multichartqa';

let fake: FakeOpenAI;
let server: TestServer;
let curator: TestClient;
let extractedChart: number;
/** Every chart of extractedChart's group, in order: a MultiChartQA question spans them all. */
let groupCharts: number[];

// A question the offline rules cannot program is asked in choose mode (the proposals listed), on the choice wires.
const ITEM_SCHEMAS = new Set(['hqa_item', 'hqa_group_item', 'hqa_item_choice', 'hqa_group_item_choice']);
const itemRequests = () => fake.requests.flatMap((r) => (r.chat && ITEM_SCHEMAS.has(schemaName(r.chat) ?? '') ? [r.chat] : []));
const ImagePartSchema = z.object({ image_url: z.object({ url: z.string(), detail: z.string().optional() }) });
function imageParts(chat: FakeChatRequest): { url: string; detail?: string }[] {
  const user = chat.messages[1]?.content;
  if (!Array.isArray(user)) return [];
  return user.flatMap((p) => (p.type === 'image_url' ? [ImagePartSchema.parse(p).image_url] : []));
}
const decoded = (url: string) => sharp(Buffer.from(url.replace(/^data:image\/png;base64,/, ''), 'base64')).metadata();
async function items(query: string) {
  return ItemListResponseSchema.parse((await curator.send(itemsApi.list, { query: { page_size: 100, ...searchQuery(query) } })).body);
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setDefault(hqaModel());
  server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  const db = server.server.ctx.db;
  expect(importFolder(db, MULTICHARTQA_DATA, { format: 'multichartqa', split: SPLIT }).report.errors).toEqual([]);
  // One group of the split gets its tables as extraction stores them (source extracted,
  // unconfirmed): its questions, stored on its first chart, are over all of its charts.
  const first = db.prepare('SELECT c.id FROM charts c WHERE c.split = ? AND EXISTS (SELECT 1 FROM factual_qas q WHERE q.chart_id = c.id) ORDER BY c.id LIMIT 1').get(SPLIT) as { id: number };
  extractedChart = first.id;
  groupCharts = db
    .prepare('SELECT m.chart_id FROM chart_group_members m WHERE m.group_id = (SELECT group_id FROM chart_group_members WHERE chart_id = ?) ORDER BY m.position')
    .pluck()
    .all(extractedChart) as number[];
  expect(groupCharts[0]).toBe(extractedChart);
  expect(groupCharts.length).toBeGreaterThan(1);
  const extracted = toExtractedTable({
    title: 'Daily cases',
    label_header: 'Year',
    series: [{ name: 'Germany', unit: null }, { name: 'France', unit: null }],
    rows: [{ label: '2020', values: [12.5, 3] }, { label: '2021', values: [20, 7] }],
  });
  if (!extracted.ok) throw new Error(extracted.reason);
  for (const chartId of groupCharts) storeExtractedTable(db, chartId, extracted.value);
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

describe('items on an extracted, unconfirmed table', () => {
  it('are made by the openai engine, which is sent the chart image; charts with no table still get none, by name', async () => {
    const db = server.server.ctx.db;
    const questions = (db.prepare('SELECT COUNT(*) AS n FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.split = ?').get(SPLIT) as { n: number }).n;
    const { run } = await curator.call(runsApi.create, { body: { engine: 'openai', stage: 'items', split: SPLIT, items: questions, order: 'id', concurrency: 1 } });
    await server.server.executor.start(run.id);
    const detail = await curator.call(runsApi.get, { params: { id: run.id } });
    const onExtracted = (db.prepare('SELECT COUNT(*) AS n FROM factual_qas WHERE chart_id = ?').get(extractedChart) as { n: number }).n;
    expect(onExtracted).toBeGreaterThan(0);
    expect(detail.run.items_created).toBe(onExtracted);
    // The other groups' charts have no table at all: no verifier is possible there.
    expect(detail.errors).toHaveLength(questions - onExtracted);
    for (const error of detail.errors) expect(error.error).toMatch(/has no data table \(image only\): no item can be verified on it yet$/);

    const sent = itemRequests();
    expect(sent).toHaveLength(onExtracted);
    const png = getChartImage(db, extractedChart)?.png;
    if (!png) throw new Error('the extracted chart has no stored image');
    expect(await sharp(png).metadata()).toMatchObject({ width: 3400, height: 2400 });
    const settings = getSettings(db);
    const [firstChat] = sent;
    if (!firstChat) throw new Error('no Stage 2 request');
    const firstImages = imageParts(firstChat);
    expect(firstImages).toHaveLength(groupCharts.length);
    for (const chat of sent) {
      // Every chart of the group goes out scaled to the vision_max_side setting, at vision_detail, and
      // as the same bytes in every request about it (a prompt cache can serve them).
      expect(imageParts(chat)).toEqual(firstImages);
      // The table is in the text part beside the image.
      expect(JSON.stringify(chat.messages[1]?.content)).toContain('Germany');
    }
    for (const image of firstImages) {
      expect(image.detail).toBe(settings.vision_detail);
      const { width, height } = await decoded(image.url);
      expect(Math.max(width ?? 0, height ?? 0)).toBe(settings.vision_max_side);
    }
    // The group's first chart comes first, scaled from its 3400×2400 to 1568×1107.
    expect(await decoded(firstImages[0]?.url ?? '')).toMatchObject({ width: 1568, height: 1107 });
    // gpt-4o-mini reads 1568×1107 at high detail as 1088×768: 3×2 tiles at 2833 + 5667 each.
    const perImage = 2833 + 6 * 5667;
    const calls = db.prepare("SELECT images, image_tokens, image_cost, model FROM llm_calls WHERE run_id = ? AND purpose = 'stage2'").all(run.id) as { images: number; image_tokens: number; image_cost: number; model: string }[];
    expect(calls).toHaveLength(onExtracted);
    for (const call of calls) {
      expect(call).toMatchObject({ model: 'gpt-4o-mini', images: groupCharts.length, image_tokens: groupCharts.length * perImage });
      expect(call.image_cost).toBeCloseTo((groupCharts.length * perImage * 0.15) / 1e6, 12);
    }

    const list = await items(`chart_id=${extractedChart}`);
    expect(list.total).toBe(onExtracted);
    for (const item of list.items) expect(item.table_state).toBe('unconfirmed');
    const [one] = list.items;
    const item = (await curator.call(itemsApi.get, { params: { id: one?.id ?? 0 } })).item;
    expect(item.table_state).toBe('unconfirmed');
  });

  it('are found by the table=unconfirmed filter, apart from items on confirmed tables', async () => {
    const db = server.server.ctx.db;
    const confirmedChart = buildChart(db, { split: 'with-table' });
    const confirmedItem = buildItem(db, { qaId: buildQa(db, { chartId: confirmedChart, label: '20' }) });
    const unconfirmed = await items('table=unconfirmed');
    expect(unconfirmed.total).toBeGreaterThan(0);
    expect(new Set(unconfirmed.items.map((i) => i.chart_id))).toEqual(new Set([extractedChart]));
    const confirmed = await items('table=confirmed');
    expect(confirmed.items.map((i) => i.id)).toEqual([confirmedItem]);
    expect(confirmed.items[0]?.table_state).toBe('confirmed');
    const bad = await curator.send(itemsApi.list, { query: { table: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('table');
  });

  it('export with verification.table per item and the count in the stats, which the dataset card states', async () => {
    const db = server.server.ctx.db;
    setItemStatus(db, 'accepted');
    const total = (db.prepare('SELECT COUNT(*) AS n FROM hqa_items').get() as { n: number }).n;
    const onExtracted = (db.prepare('SELECT COUNT(*) AS n FROM hqa_items WHERE chart_id = ?').get(extractedChart) as { n: number }).n;
    const doc = ChartHqaExportV1Schema.parse((await curator.send(exportApi.download, { body: { format: 'chart-hqa' } })).body);
    expect(doc.items).toHaveLength(total);
    expect(doc.stats.table_unconfirmed).toBe(onExtracted);
    expect(doc.items.filter((i) => i.verification.table === 'unconfirmed')).toHaveLength(onExtracted);
    expect(doc.items.filter((i) => i.verification.table === 'confirmed')).toHaveLength(total - onExtracted);
    const card = datasetCard({ name: 'demo', items: total, images: 2, stats: doc.stats, settings: { reviews_per_item: 1, consensus_rule: 'majority' }, createdAt: new Date() });
    expect(card).toContain(`| items verified on an unconfirmed (extracted) table | ${onExtracted} |`);
    expect(card).toContain(`${onExtracted} of ${total} items were verified on a data table a vision model extracted`);
    expect(card).toContain('`verification.table`');
  });

  it('lose the mark when a curator confirms the tables, in the list, the item and the export', async () => {
    const [last, ...before] = [...groupCharts].reverse();
    for (const chartId of before.reverse()) {
      expect((await curator.send(tablesApi.confirm, { params: { id: chartId }, body: {} })).status).toBe(200);
    }
    // A group item is as verified as its weakest chart: marked until the last table is confirmed.
    expect((await items('table=unconfirmed')).total).toBeGreaterThan(0);
    const res = await curator.send(tablesApi.confirm, { params: { id: last }, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(SaveTableResponseSchema.parse(res.body).table).toMatchObject({ table_source: 'extracted', table_confirmed: true });
    expect((await items('table=unconfirmed')).total).toBe(0);
    for (const item of (await items(`chart_id=${extractedChart}`)).items) expect(item.table_state).toBe('confirmed');
    const doc = ChartHqaExportV1Schema.parse((await curator.send(exportApi.download, { body: { format: 'chart-hqa' } })).body);
    expect(doc.stats.table_unconfirmed).toBe(0);
    expect(doc.items.every((i) => i.verification.table === 'confirmed')).toBe(true);
    expect(datasetCard({ name: 'demo', items: doc.items.length, images: 2, stats: doc.stats, settings: { reviews_per_item: 1, consensus_rule: 'majority' }, createdAt: new Date() })).toContain(
      'Every item was verified on a confirmed data table',
    );
  });
});
