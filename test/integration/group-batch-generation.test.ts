import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsApi } from '../../shared/api/runs';
import { tableFromCells } from '../../shared/table/model';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { getSettings } from '../../server/settings/settings-queries';
import { hqaModel, schemaName } from '../support/fake-hqa-model';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { addChartImage, buildChart, buildChartGroup, buildQa, setTablesConfirmed } from '../support/factories';
import { TestClient } from '../support/http-client';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * A batch run's Stage 2 over a chart group: the request for a group question is rendered from
 * `stage2-group-item` and its `llm_calls` row says so (name and hash of that file), beside a
 * one-chart question's `stage2-item`, as the call-by-call engine records them.
 */

const OWID_PNG = resolve(MULTICHARTQA_DATA, 'owid_0_covid-exemplar-germany-2020/daily-covid-cases-deaths-7-day-ra.png');

let server: TestServer;
let curator: TestClient;
let fake: FakeOpenAI;
const db = () => server.server.ctx.db;

/** The hash a call records: sha256 of the template file's text, read here independently of the server. */
const fileHash = (name: string) => createHash('sha256').update(readFileSync(`prompts/${name}.md`, 'utf8'), 'utf8').digest('hex');

beforeAll(async () => {
  fake = await startFakeOpenAI({ defaultHandler: hqaModel() });
  server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url, batchPollMs: 10 } });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

describe('a batch run with a question over a chart group', () => {
  it('records for each request the template it was rendered from: stage2-group-item for the group question, stage2-item for the one-chart question', async () => {
    const split = 'grp-batch';
    const charts = [
      buildChart(db(), { split, chartType: 'line', title: 'Sales', table: tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12']]) }),
      buildChart(db(), { split, chartType: 'vertical_bar', title: 'Costs', table: tableFromCells(['Year', 'Costs'], [['2019', '8'], ['2020', '13']]) }),
    ];
    setTablesConfirmed(db(), charts);
    const groupId = buildChartGroup(db(), { chartIds: charts, split });
    const groupQa = buildQa(db(), { chartId: charts[0] as number, groupId, query: 'Is Sales in the first chart higher than Costs in the second chart in 2019?', label: 'Yes' });
    const singleQa = buildQa(db(), { chartId: charts[1] as number, query: 'What is the value of 2020?', label: '13' });
    // The bar chart has a stored image, an Our World in Data chart's size (3400×2400): both questions show it.
    addChartImage(db(), charts[1] as number, readFileSync(OWID_PNG));

    fake.batches.configure({ pollsToComplete: 1 });
    const linesBefore = fake.batches.lines.length;
    const { run } = await curator.call(runsApi.create, { body: { engine: 'openai', model: 'gpt-4o-mini', stage: 'items', split, items: 10, batch: true } });
    await server.server.executor.start(run.id);
    const detail = await curator.call(runsApi.get, { params: { id: run.id } });
    expect(detail.run, JSON.stringify(detail.errors)).toMatchObject({ status: 'done', items_created: 2, items_failed: 0 });
    // One batch carried both requests, each with its own schema.
    expect(fake.batches.lines.slice(linesBefore).map((line) => schemaName(line.body as Parameters<typeof schemaName>[0])).sort()).toEqual(['hqa_group_item', 'hqa_item']);

    const qaOfTask = new Map((db().prepare('SELECT id, qa_id FROM run_tasks WHERE run_id = ?').all(run.id) as { id: number; qa_id: number }[]).map((t) => [t.id, t.qa_id]));
    const calls = listLlmCalls(db(), { runId: run.id });
    expect(calls.every((call) => call.batch_id !== null && call.purpose === 'stage2')).toBe(true);
    const recorded = new Map(calls.map((call) => [qaOfTask.get(call.task_id as number), { template: call.template, template_hash: call.template_hash }]));
    expect(recorded.get(groupQa)).toEqual({ template: 'stage2-group-item', template_hash: fileHash('stage2-group-item') });
    expect(recorded.get(singleQa)).toEqual({ template: 'stage2-item', template_hash: fileHash('stage2-item') });
    expect(fileHash('stage2-group-item')).not.toBe(fileHash('stage2-item'));

    // Each line carries the image scaled to the vision_max_side setting at vision_detail, the same bytes in both.
    const settings = getSettings(db());
    const images = fake.batches.lines.slice(linesBefore).map((line) => {
      const user = (line.body as { messages: { content: unknown }[] }).messages[1]?.content;
      return (Array.isArray(user) ? user : []).flatMap((part: { type: string; image_url?: { url: string; detail?: string } }) => (part.type === 'image_url' && part.image_url ? [part.image_url] : []));
    });
    expect(images.map((sent) => sent.length)).toEqual([1, 1]);
    expect(images[0]).toEqual(images[1]);
    const [image] = images[0] ?? [];
    expect(image?.detail).toBe(settings.vision_detail);
    expect(await sharp(Buffer.from((image?.url ?? '').replace(/^data:image\/png;base64,/, ''), 'base64')).metadata()).toMatchObject({ width: settings.vision_max_side, height: 1107 });
    // Each result's row estimates the image as gpt-4o-mini reads 1568×1107 (3×2 tiles at 2833 + 5667), at the batch price.
    const perImage = 2833 + 6 * 5667;
    for (const call of calls) {
      expect(call).toMatchObject({ images: 1, image_tokens: perImage });
      expect(call.image_cost).toBeCloseTo((perImage * 0.15 * settings.batch_discount) / 1e6, 12);
    }
  });
});
