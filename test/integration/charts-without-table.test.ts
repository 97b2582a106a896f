import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartsApi } from '../../shared/api/charts';
import { runsApi } from '../../shared/api/runs';
import { importFolder } from '../../server/import/import-folder';
import { buildChart, buildItem, buildQa, dropChartImage, markTableExtracted, setImageRef } from '../support/factories';
import { TestClient } from '../support/http-client';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';
import { startTestServer, type TestServer } from '../support/test-server';
import { itemsApi } from '../../shared/api/items';

/**
 * Charts imported from benchmarks that publish no tables: the API lists them as image only
 * (or image missing), the offline engine makes no items on them and says so per task, and
 * nothing that reads a table crashes on them.
 */

let server: TestServer;
let curator: TestClient;

beforeAll(async () => {
  // A key (to an endpoint nothing calls) so evaluation runs with the openai engine can be created.
  server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: 'http://127.0.0.1:9/v1' } });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  // MultiChartQA: images in the group folders; ChartBench without --images: every image missing.
  expect(importFolder(server.server.ctx.db, MULTICHARTQA_DATA, { format: 'multichartqa' }).report.errors).toEqual([]);
});
afterAll(async () => {
  await server.close();
});

describe('charts without a table', () => {
  it('are listed and shown as image only, with "image missing" when the import found no image', async () => {
    const list = await curator.call(chartsApi.list, { query: { split: 'multichartqa', page_size: 100 } });
    expect(list.total).toBeGreaterThan(0);
    for (const chart of list.charts) expect(chart).toMatchObject({ table_source: null, table_confirmed: false, has_image: true, image_missing: false });
    const [first] = list.charts;
    if (!first) throw new Error('no chart');
    const detail = await curator.call(chartsApi.get, { params: { id: first.id } });
    expect(detail.chart.data_table).toBeNull();
    expect(detail.qas.length).toBeGreaterThan(0);
    // The questions come with their kind, group and the benchmark's fields, parsed at the query boundary.
    for (const qa of detail.qas) {
      expect(qa.group_id).not.toBeNull();
      expect(qa.benchmark_fields).toMatchObject({ benchmark: 'multichartqa', id: expect.stringMatching(/^group_/) });
      expect(['number', 'text', 'multiple_choice', 'multi_part']).toContain(qa.answer_kind);
    }
    // A hand-written item needs a table to be verified on: refused by the field, naming the chart.
    const [qa] = detail.qas;
    const written = await curator.send(itemsApi.create, { body: { qa_id: qa?.id, assumption: 'Suppose x.', question: 'Suppose x. What?', rationale: 'r', edit: null, program: '1', answer: '1', answer_type: 'integer', affects_answer: false } });
    expect(written.status).toBe(400);
    expect(JSON.stringify(written.body)).toContain(`body.qa_id: chart multichartqa/${first.imgname} has no data table (image only)`);
    const image = await fetch(`${server.url}/api/charts/${first.id}/image`, { headers: { cookie: curator.cookie } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/png/);

    // A chart whose image the import did not find: nothing to draw it from either.
    const db = server.server.ctx.db;
    dropChartImage(db, first.id);
    const missing = (await curator.call(chartsApi.get, { params: { id: first.id } })).chart;
    expect(missing).toMatchObject({ image_missing: true, has_image: false });
    const gone = await curator.send(chartsApi.image, { params: { id: first.id } });
    expect(gone.status).toBe(404);
    expect(JSON.stringify(gone.body)).toContain('image missing');
  });

  it('get no items from the offline engine, which says so for each task; a chart with a confirmed table still gets them', async () => {
    const db = server.server.ctx.db;
    const run = (await curator.call(runsApi.create, { body: { engine: 'offline', stage: 'items', split: 'multichartqa', items: 3, order: 'id' } })).run;
    await server.server.executor.start(run.id);
    const detail = await curator.call(runsApi.get, { params: { id: run.id } });
    expect(detail.run).toMatchObject({ status: 'done', items_created: 0, items_failed: 3 });
    expect(detail.errors).toHaveLength(3);
    for (const error of detail.errors) expect(error.error).toMatch(/^chart multichartqa\/.+ has no data table \(image only\): the offline engine makes no items for it$/);

    // The same question on a chart with an imported (confirmed) table is made into an item.
    const chartId = buildChart(db, { split: 'with-table' });
    buildQa(db, { chartId, query: 'What is the Sales in 2020?', label: '20' });
    const tabled = (await curator.call(runsApi.create, { body: { engine: 'offline', stage: 'items', split: 'with-table', items: 1, order: 'id' } })).run;
    await server.server.executor.start(tabled.id);
    const done = await curator.call(runsApi.get, { params: { id: tabled.id } });
    expect(done.run.items_created + done.run.items_failed).toBe(1);
    expect(done.errors.map((e) => e.error).join('\n')).not.toContain('data table');

    // A table a model extracted but nobody confirmed: the offline engine still makes nothing on it.
    const extracted = buildChart(db, { split: 'extracted' });
    markTableExtracted(db, extracted);
    buildQa(db, { chartId: extracted, query: 'What is the Sales in 2019?', label: '10' });
    const unconfirmed = (await curator.call(runsApi.create, { body: { engine: 'offline', stage: 'items', split: 'extracted', items: 1, order: 'id' } })).run;
    await server.server.executor.start(unconfirmed.id);
    const refused = await curator.call(runsApi.get, { params: { id: unconfirmed.id } });
    expect(refused.run).toMatchObject({ items_created: 0, items_failed: 1 });
    expect(refused.errors.map((e) => e.error)).toEqual([expect.stringMatching(/^chart extracted\/.+ has no confirmed data table: the offline engine makes no items for it$/)]);
  });

  it('refuse an evaluation run with images when an accepted item’s chart has its image missing, naming the chart', () => {
    const db = server.server.ctx.db;
    const chartId = buildChart(db, { split: 'eval', imgname: 'figure-7.jpg' });
    // A benchmark chart whose image was not imported (and, later, a table typed in for it).
    setImageRef(db, chartId, 'figure-7.jpg');
    buildItem(db, { qaId: buildQa(db, { chartId, query: 'What is the Sales in 2020?', label: '20' }), status: 'accepted' });
    const request = { engine: 'openai' as const, model: 'vision-model', mode: 'hqa' as const, concurrency: 1 };
    expect(() => server.server.evalExecutor.createRun(request, null)).toThrow('image missing for chart eval/figure-7.jpg');
    // Without images the run is made.
    expect(server.server.evalExecutor.createRun({ ...request, mode: 'no_image' }, null).mode).toBe('no_image');
  });
});
