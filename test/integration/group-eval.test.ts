import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableFromCells } from '../../shared/table/model';
import { chartImage } from '../../server/charts/chart-image';
import { buildChart, buildChartGroup, buildItem, buildQa } from '../support/factories';
import { startFakeOpenAI, textReply, type FakeOpenAI, type RecordedRequest } from '../support/fake-openai';
import { runCli } from '../support/cli';
import { CHARTQA_EXTRA } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Evaluating an item over a chart group sends every chart, in group order, one image part
 * each after a "Chart N:" text part, then the question: `hqa eval` from an export's `images`,
 * and the server's evaluation runs from the group's stored charts. A missing image is refused
 * by name before anything is asked.
 */

const dir = mkdtempSync(join(tmpdir(), 'hqa-group-eval-'));
let fake: FakeOpenAI;

type Part = { type: string; text?: string; image_url?: { url: string; detail?: string } };
const userParts = (request: RecordedRequest): Part[] => {
  const content = (request.body as { messages: { content: string | Part[] }[] }).messages[1]?.content;
  return Array.isArray(content) ? content : [];
};
/** The parts as a readable sequence: text as itself, an image as `image:<first base64 characters>`. */
const shape = (parts: Part[]) => parts.map((part) => (part.type === 'image_url' ? `image:${(part.image_url?.url ?? '').slice(22, 62)}` : part.text));
const b64 = (png: Buffer) => png.toString('base64').slice(0, 40);

beforeAll(async () => {
  fake = await startFakeOpenAI({ defaultHandler: () => textReply('Answer: 5') });
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hqa eval on an export with a group item', () => {
  const images = join(dir, 'images');
  const dataset = join(dir, 'export.json');
  const common = {
    chart_type: 'vertical_bar',
    assumption: 'Suppose so.',
    answer: '5',
    answer_type: 'integer',
    affects_answer: true,
    original: { query: 'Original?', label: '4', source: 'multichartqa' },
    proposal: null,
    review: { reviews: 1, accepts: 1, rejects: 0, adjudicated: false, corrected: false },
  };
  const groupItem = { id: 'chq-000001', images: ['a.png', 'b.png'], edited_chart: 2, question: 'Suppose so. Which chart is higher?', ...common };
  const singleItem = { id: 'chq-000002', imgname: 'a.png', question: 'Suppose so. What is the value?', ...common };

  beforeAll(() => {
    mkdirSync(images);
    copyFileSync(join(CHARTQA_EXTRA, 'png', 'two_col_41347.png'), join(images, 'a.png'));
    copyFileSync(join(CHARTQA_EXTRA, 'png', 'multi_col_101207.png'), join(images, 'b.png'));
    writeFileSync(dataset, JSON.stringify({ name: 't', version: '1', created_at: 'x', stats: {}, items: [groupItem, singleItem] }));
  });
  const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url });

  it('sends the group item its charts in order, each labelled, and the single-chart item its one chart', async () => {
    const before = fake.requests.length;
    const result = await runCli(['eval', '--dataset', dataset, '--model', 'vision-1', '--images', images, '--out', join(dir, 'p.json'), '--concurrency', '1', '--json'], { dbPath: join(dir, 'none.sqlite'), env: env() });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ asked: 2, failed: 0 });
    const sent = fake.requests.slice(before).map(userParts);
    const a = b64(readFileSync(join(images, 'a.png')));
    const b = b64(readFileSync(join(images, 'b.png')));
    const group = sent.find((parts) => parts.at(-1)?.text === groupItem.question);
    const single = sent.find((parts) => parts.at(-1)?.text === singleItem.question);
    expect(shape(group ?? [])).toEqual(['Chart 1:', `image:${a}`, 'Chart 2:', `image:${b}`, groupItem.question]);
    expect(shape(single ?? [])).toEqual([`image:${a}`, singleItem.question]);
  });

  it('writes the same parts into a --batch-out request file', async () => {
    const requests = join(dir, 'requests.jsonl');
    const result = await runCli(['eval', '--dataset', dataset, '--model', 'vision-1', '--images', images, '--out', join(dir, 'b.json'), '--batch-out', requests], { dbPath: join(dir, 'none.sqlite') });
    expect(result.status, result.stderr).toBe(0);
    const lines = readFileSync(requests, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { custom_id: string; body: unknown });
    const group = lines.find((line) => line.custom_id === groupItem.id);
    const parts = userParts({ body: group?.body } as RecordedRequest);
    expect(shape(parts)).toEqual(['Chart 1:', `image:${b64(readFileSync(join(images, 'a.png')))}`, 'Chart 2:', `image:${b64(readFileSync(join(images, 'b.png')))}`, groupItem.question]);
  });

  it("refuses a group item whose second image is missing, naming the file and the item", async () => {
    rmSync(join(images, 'b.png'));
    const before = fake.requests.length;
    const result = await runCli(['eval', '--dataset', dataset, '--model', 'vision-1', '--images', images, '--out', join(dir, 'q.json')], { dbPath: join(dir, 'none.sqlite'), env: env() });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`${join(images, 'b.png')} is missing (item chq-000001)`);
    expect(fake.requests.length).toBe(before);
  });
});

describe('an evaluation run with a group item', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url, batchPollMs: 10 } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends every chart of the group in position order', async () => {
    const db = server.server.ctx.db;
    const sales = buildChart(db, { title: 'Sales', table: tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12']]) });
    const costs = buildChart(db, { title: 'Costs', chartType: 'line', table: tableFromCells(['Year', 'Costs'], [['2019', '4'], ['2020', '7']]) });
    // The group lists costs first: the order sent is the group's, not the charts' ids.
    const groupId = buildChartGroup(db, { chartIds: [costs, sales] });
    const qa = buildQa(db, { chartId: costs, groupId, label: '5' });
    const question = 'Suppose 2020 sales were 15. What was the profit in 2020?';
    buildItem(db, { qaId: qa, status: 'accepted', draft: { question, edit: [{ chart: 2, op: 'set', row: '2020', value: 15 }], program: 'value(2, "2020", "Sales") - value(1, "2020", "Costs")', answer: '8' } });
    const before = fake.requests.length;
    const { evalExecutor } = server.server;
    const runId = evalExecutor.createRun({ engine: 'openai', model: 'vision-1', mode: 'hqa', concurrency: 1, batch: false }, null).id;
    await evalExecutor.start(runId);
    const sent = fake.requests.slice(before).map(userParts);
    expect(sent).toHaveLength(1);
    const first = (await chartImage(db, costs))?.png;
    const second = (await chartImage(db, sales))?.png;
    if (!first || !second) throw new Error('the group charts could not be drawn');
    expect(shape(sent[0] ?? [])).toEqual(['Chart 1:', `image:${b64(first)}`, 'Chart 2:', `image:${b64(second)}`, question]);

    // A batch run's line for the item carries the same parts.
    fake.batches.configure({ pollsToComplete: 1 });
    const lineCount = fake.batches.lines.length;
    const batchRun = evalExecutor.createRun({ engine: 'openai', model: 'vision-1', mode: 'hqa', concurrency: 1, batch: true }, null).id;
    await evalExecutor.start(batchRun);
    const [line] = fake.batches.lines.slice(lineCount);
    expect(shape(userParts({ body: line?.body } as RecordedRequest))).toEqual(['Chart 1:', `image:${b64(first)}`, 'Chart 2:', `image:${b64(second)}`, question]);

    // Each image at the vision_detail setting; each request's row counts its images (vision-1 has no token formula: not guessed).
    const details = (parts: Part[]) => parts.flatMap((part) => (part.type === 'image_url' ? [part.image_url?.detail] : []));
    expect(details(sent[0] ?? [])).toEqual(['high', 'high']);
    expect(details(userParts({ body: line?.body } as RecordedRequest))).toEqual(['high', 'high']);
    const rows = db.prepare('SELECT eval_run_id, images, image_tokens, image_cost FROM llm_calls WHERE eval_run_id IN (?, ?) ORDER BY id').all(runId, batchRun);
    expect(rows).toEqual([
      { eval_run_id: runId, images: 2, image_tokens: null, image_cost: null },
      { eval_run_id: batchRun, images: 2, image_tokens: null, image_cost: null },
    ]);
  });
});
