import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChartDetailResponseSchema, chartsApi } from '../../shared/api/charts';
import { fillPath } from '../../shared/api/endpoint';
import { itemsApi } from '../../shared/api/items';
import { ChartTableSchema, SaveTableResponseSchema, tablesApi } from '../../shared/api/tables';
import { createChartWriter } from '../../server/charts/chart-queries';
import { importFolder } from '../../server/import/import-folder';
import { storeExtractedType } from '../../server/tables/table-queries';
import { tableFromCells } from '../../shared/table/model';
import { buildItem, buildQa } from '../support/factories';
import { jsonReply, startFakeOpenAI, type FakeChatRequest, type FakeOpenAI } from '../support/fake-openai';
import type { TestClient } from '../support/http-client';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';
import { SignedInUsers } from '../support/signed-in-users';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * What an extraction reply carries beyond the numbers, end to end: the fake vision endpoint
 * answers as a capable model would for a horizontal stacked bar chart of supermarket shares
 * (type, drawing, units apart from names, which values were printed, the totals printed at the
 * bars' ends); the API gives them back, the chart takes the type as `extracted` until its table
 * is confirmed, a curator's type stands, and a reply in the older shape still stores.
 */

const SPLIT = 'multichartqa';

const READING_REPLY = {
  orientation: 'horizontal',
  stacking: 'stacked',
  chart_type: 'stacked_bar',
  title: 'Market share of supermarkets in Spain',
  label_header: 'Year',
  series: [
    { name: 'Mercadona', unit: '%' },
    { name: 'Carrefour', unit: '%' },
  ],
  rows: [
    { label: '2019', values: [24.5, 8.4], printed: [true, true], total: 32.9 },
    { label: '2020', values: [25.5, 8.7], printed: [false, true], total: 34.2 },
  ],
};

/** The shape replies had before issue 37: no type, no flags, no totals. */
const OLD_REPLY = {
  title: 'Daily cases',
  label_header: 'Year',
  series: [{ name: 'Germany', unit: 'cases' }],
  rows: [{ label: '2020', values: [12.5] }],
};

let fake: FakeOpenAI;
let server: TestServer;
let curator: TestClient;
let charts: number[];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
  expect(importFolder(server.server.ctx.db, MULTICHARTQA_DATA, { format: 'multichartqa', split: SPLIT }).report.errors).toEqual([]);
  charts = (server.server.ctx.db.prepare('SELECT id FROM charts WHERE split = ? ORDER BY id').all(SPLIT) as { id: number }[]).map((row) => row.id);
  curator = (await new SignedInUsers(server).create('curator')).client;
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const at = (e: { path: string }, id: number) => fillPath(e.path, { id });
const chartOf = async (id: number) => ChartDetailResponseSchema.parse((await curator.get(at(chartsApi.get, id))).body).chart;
const lastChat = (): FakeChatRequest => {
  const chat = fake.requests.flatMap((r) => (r.chat ? [r.chat] : [])).at(-1);
  if (!chat) throw new Error('no chat request');
  return chat;
};
const userText = (chat: FakeChatRequest) => {
  const content = chat.messages[1]?.content;
  return Array.isArray(content) ? content.map((part) => ('text' in part ? String(part.text) : '')).join('') : String(content ?? '');
};

async function extract(id: number, reply: object) {
  fake.script(jsonReply(reply));
  const res = await curator.post(at(tablesApi.extract, id));
  expect(res.status).toBe(200);
  return res;
}

describe('an extraction reply with type, units, estimates and printed totals', () => {
  it('asks an image-only chart its type, and stores names, units, estimate flags, totals and the drawing as replied', async () => {
    const id = charts[0] as number;
    expect((await chartOf(id)).type_source).toBe('inferred');
    await extract(id, READING_REPLY);
    const chat = lastChat();
    expect(userText(chat)).toContain('Its type is not known: say which it is in `chart_type`.');
    expect(userText(chat)).not.toContain('This chart is a');
    const sentSchema = JSON.stringify(chat.response_format);
    for (const field of ['"chart_type"', '"orientation"', '"stacking"', '"printed"', '"total"', '"unit"']) expect(sentSchema).toContain(field);

    const table = ChartTableSchema.parse((await curator.get(at(tablesApi.get, id))).body);
    expect(table.data_table).toEqual({
      label_header: 'Year',
      series: ['Mercadona', 'Carrefour'],
      units: ['%', '%'],
      drawn: { orientation: 'horizontal', stacking: 'stacked' },
      rows: [
        { label: '2019', values: [24.5, 8.4], raw: ['24.5', '8.4'], total: 32.9 },
        { label: '2020', values: [25.5, 8.7], raw: ['25.5', '8.7'], estimated: [true, false], total: 34.2 },
      ],
    });
    const chart = await chartOf(id);
    expect(chart).toMatchObject({ chart_type: 'stacked_bar', type_source: 'extracted', type_evidence: null, type_confirmed: false });
    // Redraws follow the reading: horizontal, stacked, units in the legend's tooltip.
    expect(chart.drawing_style).toMatchObject({ orientation: 'horizontal', stacking: 'stacked', series_units: { Mercadona: '%', Carrefour: '%' } });
  });

  it('notes an item whose answer reads the estimated value, where reviewers see the verifier', async () => {
    const id = charts[0] as number;
    const qa = buildQa(server.server.ctx.db, { chartId: id, query: 'What was the market share of Mercadona in 2020?', label: '25.5' });
    const reads = (program: string, answer: string) => {
      const itemId = buildItem(server.server.ctx.db, {
        qaId: qa,
        draft: { assumption: 'Suppose Carrefour had 10% in 2020.', question: 'Suppose Carrefour had 10% in 2020. What share did the two have together?', answer, answer_type: 'decimal', edit: [{ op: 'set', row: '2020', series: 'Carrefour', value: 10 }], program },
      });
      return itemId;
    };
    const onEstimate = (await curator.call(itemsApi.get, { params: { id: reads('value("2020", "Mercadona") + value("2020", "Carrefour")', '35.5') } })).item;
    expect(onEstimate.verifier.lint).toContainEqual(expect.objectContaining({ code: 'estimated_value', severity: 'warning', message: expect.stringContaining('"2020" × "Mercadona" (25.5)') }));
    const printedOnly = (await curator.call(itemsApi.get, { params: { id: reads('value("2019", "Mercadona") + value("2020", "Carrefour")', '34.5') } })).item;
    expect(printedOnly.verifier.lint.map((finding) => finding.code)).not.toContain('estimated_value');
  });

  it('confirms the extracted type with the table', async () => {
    const id = charts[0] as number;
    const confirmed = SaveTableResponseSchema.parse((await curator.post(at(tablesApi.confirm, id))).body);
    expect(confirmed.table.table_confirmed).toBe(true);
    expect(await chartOf(id)).toMatchObject({ chart_type: 'stacked_bar', type_source: 'extracted', type_confirmed: true });
  });

  it('keeps a curator’s type, telling the model it', async () => {
    const id = charts[1] as number;
    expect((await curator.request('PATCH', at(chartsApi.update, id), { chart_type: 'line' })).status).toBe(200);
    await extract(id, { ...READING_REPLY, orientation: 'none', stacking: 'none', chart_type: 'pie' });
    expect(userText(lastChat())).toContain('Its type is known: line (`line`)');
    expect(await chartOf(id)).toMatchObject({ chart_type: 'line', type_source: 'curator' });
    // The table is stored all the same.
    expect(ChartTableSchema.parse((await curator.get(at(tablesApi.get, id))).body).data_table?.series).toEqual(['Mercadona', 'Carrefour']);
  });

  it('stores a reply in the older shape: the type stays as it was, the unit apart from the name', async () => {
    const id = charts[2] as number;
    const before = await chartOf(id);
    await extract(id, OLD_REPLY);
    const table = ChartTableSchema.parse((await curator.get(at(tablesApi.get, id))).body).data_table;
    expect(table).toEqual({ label_header: 'Year', series: ['Germany'], units: ['cases'], rows: [{ label: '2020', values: [12.5], raw: ['12.5'] }] });
    expect(await chartOf(id)).toMatchObject({ chart_type: before.chart_type, type_source: before.type_source });
  });
});

describe('which type an extraction may set', () => {
  it('never an annotation’s (CharXiv’s, ChartQA’s), always over an inferred one', async () => {
    const { db } = server.server.ctx;
    const write = (imgname: string, typeSource: 'annotation' | 'inferred') =>
      createChartWriter(db).write(
        {
          split: 'typed',
          imgname,
          title: null,
          chart_type: 'line',
          type_source: typeSource,
          type_evidence: null,
          table: tableFromCells(['Year', 'Sales'], [['2019', '1']]),
          annotation: null,
          source_file: imgname,
          content_hash: imgname,
          image: null,
        },
        [],
      ).chartId;
    const annotated = write('annotated.png', 'annotation');
    const inferred = write('inferred.png', 'inferred');
    expect(storeExtractedType(db, annotated, 'pie')).toBe(false);
    expect(storeExtractedType(db, inferred, 'pie')).toBe(true);
    expect(await chartOf(annotated)).toMatchObject({ chart_type: 'line', type_source: 'annotation' });
    expect(await chartOf(inferred)).toMatchObject({ chart_type: 'pie', type_source: 'extracted' });
  });
});
