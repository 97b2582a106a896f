import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalApi, EvalRunResponseSchema, type EvalMode, type EvalResult, type EvalRun } from '../../shared/api/evaluations';
import { exportApi } from '../../shared/api/export';
import { ChartHqaExportV1Schema, itemImages, type ChartHqaItem } from '../../shared/export/chart-hqa';
import { conditionGaps } from '../../shared/eval/conditions';
import { relaxedCorrect } from '../../shared/table/answers';
import { chartImage } from '../../server/charts/chart-image';
import { renderChartPng } from '../../server/charts/render-chart';
import { itemDrawingPlan } from '../../server/eval/condition-drawings';
import { lastUserText, startFakeOpenAI, textReply, type FakeChatRequest, type FakeOpenAI } from '../support/fake-openai';
import { runCli } from '../support/cli';
import { dropItemEdit, itemIdsOnDistinctQuestions, setItemStatus, setStoredTableText } from '../support/factories';
import { TestClient } from '../support/http-client';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { waitFor } from '../support/wait-for';

/**
 * The evaluation conditions against the fake VLM, through the server (the Evaluation page's
 * API): one run asks all five, and for each the test checks which image went with which question
 * text, and which gold scored the reply. The fake answers a factual question with its label
 * whatever the image, a hypothetical one with the item's answer when it sees a chart and the
 * label when it does not: so each condition's gold shows in which answers count as right.
 */

let server: TestServer;
let fake: FakeOpenAI;
let cora: TestClient;
let items: ChartHqaItem[];
/** The accepted item whose edit was taken away: the drawn conditions skip it. */
let undrawableId: string;
/** Why each undrawable item is skipped: the one without an edit, and any chart of type `other`. */
const skipReasons = new Map<string, string>();
const drawable = () => items.filter((item) => !skipReasons.has(item.id));

const db = () => server.server.ctx.db;
const itemIdOf = (item: ChartHqaItem) => Number(item.id.slice(4));

/** The PNG a request carried (null: none), from its user message's image part, as a short hash (a failure prints names, not megabytes). */
function sentImage(chat: FakeChatRequest): string | null {
  const content = chat.messages.filter((m) => m.role === 'user').at(-1)?.content;
  if (!Array.isArray(content)) return null;
  const part = content.find((p) => p.type === 'image_url') as { image_url?: { url?: string } } | undefined;
  const url = part?.image_url?.url;
  return url === undefined ? null : pngHash(Buffer.from(url.replace(/^data:image\/png;base64,/, ''), 'base64'));
}
const pngHash = (png: Buffer | undefined) => (png ? createHash('sha256').update(png).digest('hex').slice(0, 16) : 'none');
/** The question text of a request (the image part has none). */
const textOf = (chat: FakeChatRequest) => lastUserText(chat).trim();

/** The fake's reply: a factual question's label whatever the image; a hypothetical one's answer with a chart, its label without. */
function fakeAnswer(chat: FakeChatRequest): string {
  const text = textOf(chat);
  const factual = items.find((item) => item.original.query === text);
  if (factual) return `Answer: ${factual.original.label}`;
  const hypothetical = items.find((item) => item.question === text);
  if (!hypothetical) return 'I cannot tell.';
  return `Answer: ${sentImage(chat) === null ? hypothetical.original.label : hypothetical.answer}`;
}

beforeAll(async () => {
  fake = await startFakeOpenAI({ defaultHandler: (chat) => textReply(fakeAnswer(chat)) });
  server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
  const run = await generateItems(server, 12);
  // Distinct factual questions, so the fake knows each item by its text.
  setItemStatus(db(), 'accepted', itemIdsOnDistinctQuestions(db(), run, { limit: 5, singleChart: true }));
  await server.createUser('cora', 'curator', 'curator-pass-1');
  cora = new TestClient(server.url);
  await cora.login('cora', 'curator-pass-1');
  items = ChartHqaExportV1Schema.parse((await cora.send(exportApi.download, { body: { format: 'chart-hqa' } })).body).items;
  expect(items).toHaveLength(5);
  // An item with no machine-readable edit (an item written before edits were required): nothing to draw.
  const last = items.findLast((item) => item.chart_type !== 'other') as ChartHqaItem;
  undrawableId = last.id;
  dropItemEdit(db(), itemIdOf(last));
  skipReasons.set(undrawableId, 'the item has no machine-readable edit to draw');
  for (const item of items) if (item.chart_type === 'other') skipReasons.set(item.id, 'chart type "other" has no drawing of its own');
  expect(drawable().length).toBeGreaterThanOrEqual(2);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function results(runId: number, condition: EvalMode): Promise<EvalResult[]> {
  return (await cora.call(evalApi.results, { params: { id: runId }, query: { condition, page_size: 50 } })).results;
}

describe('an evaluation run over several conditions', () => {
  let run: EvalRun;

  it('asks each condition with its own image and question text, and skips what cannot be drawn', async () => {
    const before = fake.requests.length;
    const conditions: EvalMode[] = ['hqa', 'original', 'no_image', 'counterfactual_image', 'drawn_original'];
    const res = await cora.send(evalApi.create, { body: { engine: 'openai', model: 'vision-1', conditions, concurrency: 3 } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { run: created } = EvalRunResponseSchema.parse(res.body);
    expect(created.mode).toBe('hqa');
    expect(created.conditions.map((c) => c.condition)).toEqual(conditions);
    run = await waitFor(
      'the run to finish',
      async () => (await cora.call(evalApi.get, { params: { id: created.id } })).run,
      (now) => now.status === 'done',
    );
    // 5 items × 3 undrawn conditions + the drawable ones × 2 drawn ones; the others are skipped twice.
    const sent = fake.requests.slice(before).map((r) => r.chat).filter((chat): chat is FakeChatRequest => chat !== undefined);
    const drawn = drawable().length;
    expect(sent).toHaveLength(5 * 3 + drawn * 2);
    expect(run.items_total).toBe(5 * 3 + drawn * 2);
    expect(run.items_skipped).toBe((5 - drawn) * 2);
    expect(run.conditions.find((c) => c.condition === 'counterfactual_image')).toMatchObject({ items_total: drawn, items_skipped: 5 - drawn });

    for (const item of items) {
      const chart = (db().prepare('SELECT chart_id FROM hqa_items WHERE id = ?').get(itemIdOf(item)) as { chart_id: number }).chart_id;
      const chartPng = pngHash((await chartImage(db(), chart))?.png);
      const imagesFor = (text: string) => sent.filter((chat) => textOf(chat) === text).map(sentImage);
      // The hypothetical question: once with the chart (hqa), once with none (no_image).
      expect(imagesFor(item.question).sort()).toEqual([chartPng, null].sort());
      const factualImages = imagesFor(item.original.query);
      if (skipReasons.has(item.id)) {
        expect(factualImages).toEqual([chartPng]);
        continue;
      }
      // The two drawings, made here in-process from the same plan: the very bytes the render thread sent.
      const { plan } = itemDrawingPlan(db(), itemIdOf(item));
      if (!plan.ok) throw new Error(plan.reason);
      const drawnOriginal = pngHash(await renderChartPng(plan.original, plan.chartType, plan.options));
      const drawnEdited = pngHash(await renderChartPng(plan.edited, plan.chartType, plan.options));
      expect(drawnEdited).not.toBe(drawnOriginal);
      // The factual question: with the chart (original), the drawn original and the drawn counterfactual.
      expect(factualImages.sort()).toEqual([chartPng, drawnOriginal, drawnEdited].sort());
    }
  });

  it('scores each condition against its own gold, and gives the gaps between them', async () => {
    const kept = (item: ChartHqaItem) => relaxedCorrect(item.original.label, item.answer);
    const byId = new Map(items.map((item) => [item.id, item]));
    const expectResults = async (condition: EvalMode, gold: (item: ChartHqaItem) => string, correct: (item: ChartHqaItem) => boolean) => {
      const rows = (await results(run.id, condition)).filter((row) => row.status !== 'skipped');
      for (const row of rows) {
        const item = byId.get(row.id) as ChartHqaItem;
        expect([condition, row.id, row.gold, row.correct]).toEqual([condition, item.id, gold(item), correct(item)]);
      }
      return rows;
    };
    expect(await expectResults('hqa', (item) => item.answer, () => true)).toHaveLength(5);
    expect(await expectResults('original', (item) => item.original.label, () => true)).toHaveLength(5);
    expect(await expectResults('no_image', (item) => item.answer, kept)).toHaveLength(5);
    // Seen, not imagined: the factual question on the edited drawing is scored against the hypothetical answer.
    const counterfactual = await expectResults('counterfactual_image', (item) => item.answer, kept);
    expect(counterfactual.map((row) => row.question)).toEqual(counterfactual.map((row) => byId.get(row.id)?.original.query));
    expect(counterfactual).toHaveLength(drawable().length);
    expect(await expectResults('drawn_original', (item) => item.original.label, () => true)).toHaveLength(drawable().length);

    for (const condition of ['counterfactual_image', 'drawn_original'] as const) {
      const skipped = (await results(run.id, condition)).filter((row) => row.status === 'skipped');
      expect(skipped.map((row) => [row.id, row.error])).toEqual(items.filter((item) => skipReasons.has(item.id)).map((item) => [item.id, skipReasons.get(item.id)]));
    }
    const share = (list: ChartHqaItem[], right: (item: ChartHqaItem) => boolean) => ({ correct: list.filter(right).length, items: list.length });
    const expected = conditionGaps({
      hqa: share(items, () => true),
      original: share(items, () => true),
      no_image: share(items, kept),
      counterfactual_image: share(drawable(), kept),
      drawn_original: share(drawable(), () => true),
    });
    expect(run.gaps).toEqual(expected);
    // The offline engine's items change their answer: seeing the edit is not imagining it here.
    expect(run.gaps.find((gap) => gap.id === 'imagining_vs_seeing')?.points).toBeGreaterThan(0);
  });

  it('passes over the drawn conditions while the next one’s drawing is not back; a run of drawn conditions alone still asks them', async () => {
    const finished = (id: number) => waitFor('the run to finish', async () => (await cora.call(evalApi.get, { params: { id } })).run, (now) => now.status === 'done');
    // The first three answers are slow, so the questions the three workers took first can be read from what the fake holds.
    const slow = (chat: FakeChatRequest) => textReply(fakeAnswer(chat), { delayMs: 1_500 });
    fake.script(slow, slow, slow);
    const before = fake.requests.length;
    const { run: created } = await cora.call(evalApi.create, { body: { engine: 'openai', model: 'vision-1', conditions: ['counterfactual_image', 'drawn_original', 'hqa'], concurrency: 3 } });
    await waitFor('three questions sent', () => fake.requests.length - before, (sent) => sent >= 3);
    // In dataset order the first item's two drawn questions come first (factual text on a
    // drawing); the workers took the first three items' hypothetical questions, on their charts.
    const held = fake.requests.slice(before, before + 3).map((request) => (request.chat ? textOf(request.chat) : null));
    expect(held.sort()).toEqual(items.slice(0, 3).map((item) => item.question).sort());
    const done = await finished(created.id);
    expect(done.items_answered).toBe(done.items_total);

    const { run: drawnOnly } = await cora.call(evalApi.create, { body: { engine: 'openai', model: 'vision-1', conditions: ['drawn_original'], concurrency: 2 } });
    const drawnDone = await finished(drawnOnly.id);
    expect({ answered: drawnDone.items_answered, failed: drawnDone.items_failed }).toEqual({ answered: drawable().length, failed: 0 });
  });

  it('refuses a batch run of the drawn conditions, and a condition named twice', async () => {
    const batch = await cora.send(evalApi.create, { body: { engine: 'openai', model: 'vision-1', conditions: ['counterfactual_image'], batch: true } });
    expect(batch.status).toBe(400);
    const twice = await cora.send(evalApi.create, { body: { engine: 'openai', model: 'vision-1', conditions: ['hqa', 'hqa'] } });
    expect(twice.status).toBe(400);
  });

  it('keeps an item’s drawing plan while its chart’s stored table stays the same, and makes it anew once the table changes', () => {
    const itemId = itemIdOf(drawable()[0] as ChartHqaItem);
    const kept = itemDrawingPlan(db(), itemId).plan;
    expect(itemDrawingPlan(db(), itemId).plan).toBe(kept);
    const { chart_id: chartId } = db().prepare('SELECT chart_id FROM hqa_items WHERE id = ?').get(itemId) as { chart_id: number };
    const { data_table: stored } = db().prepare('SELECT data_table FROM charts WHERE id = ?').get(chartId) as { data_table: string };
    // The same updated_at: the stored text, not the timestamp, decides.
    setStoredTableText(db(), chartId, JSON.stringify({ ...JSON.parse(stored), label_header: 'Renamed labels' }));
    try {
      const renewed = itemDrawingPlan(db(), itemId).plan;
      expect(renewed).not.toBe(kept);
      expect(renewed.ok && renewed.original.label_header).toBe('Renamed labels');
    } finally {
      setStoredTableText(db(), chartId, stored);
    }
  });
});

describe('hqa eval over several conditions', () => {
  it('sends each condition its image and question, drawing from the workbench database, each to its own file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hqa-eval-conditions-'));
    try {
      const dataset = join(dir, 'd.json');
      writeFileSync(dataset, JSON.stringify((await cora.send(exportApi.download, { body: { format: 'chart-hqa' } })).body));
      // The chart images as `hqa export --images` writes them: only hqa asks with them here.
      const images = join(dir, 'img');
      for (const item of items) {
        const chart = (db().prepare('SELECT chart_id FROM hqa_items WHERE id = ?').get(itemIdOf(item)) as { chart_id: number }).chart_id;
        const [file = ''] = itemImages(item);
        mkdirSync(dirname(join(images, file)), { recursive: true });
        writeFileSync(join(images, file), (await chartImage(db(), chart))?.png ?? Buffer.alloc(0));
      }
      const before = fake.requests.length;
      const out = join(dir, 'p.json');
      const result = await runCli(
        ['eval', '--dataset', dataset, '--model', 'vision-1', '--images', images, '--hqa', '--counterfactual-image', '--drawn-original', '--no-image', '--out', out, '--concurrency', '3', '--json'],
        { dbPath: server.dbPath, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, HQA_RENDER_THREADS: '1' } },
      );
      expect(result.status, result.stderr).toBe(0);
      const report = z
        .object({ conditions: z.array(z.object({ condition: z.string(), out: z.string(), asked: z.number(), resumed: z.number(), failed: z.number(), undrawable: z.array(z.object({ id: z.string(), reason: z.string() })) })) })
        .parse(JSON.parse(result.stdout));
      const undrawable = items.filter((item) => skipReasons.has(item.id)).map((item) => ({ id: item.id, reason: skipReasons.get(item.id) }));
      expect(report.conditions).toEqual([
        { condition: 'hqa', out: join(dir, 'p.hqa.json'), asked: 5, undrawable: [], resumed: 0, failed: 0 },
        { condition: 'no_image', out: join(dir, 'p.no_image.json'), asked: 5, undrawable: [], resumed: 0, failed: 0 },
        { condition: 'counterfactual_image', out: join(dir, 'p.counterfactual_image.json'), asked: drawable().length, undrawable, resumed: 0, failed: 0 },
        { condition: 'drawn_original', out: join(dir, 'p.drawn_original.json'), asked: drawable().length, undrawable, resumed: 0, failed: 0 },
      ]);

      const sent = fake.requests.slice(before).map((r) => r.chat).filter((chat): chat is FakeChatRequest => chat !== undefined);
      expect(sent).toHaveLength(5 * 2 + drawable().length * 2);
      for (const item of items) {
        const imagesFor = (text: string) => sent.filter((chat) => textOf(chat) === text).map(sentImage).sort();
        const filePng = pngHash(readFileSync(join(images, itemImages(item)[0] ?? '')));
        expect(imagesFor(item.question)).toEqual([filePng, null].sort());
        if (skipReasons.has(item.id)) {
          expect(imagesFor(item.original.query)).toEqual([]);
          continue;
        }
        const { plan } = itemDrawingPlan(db(), itemIdOf(item));
        if (!plan.ok) throw new Error(plan.reason);
        const drawn = [pngHash(await renderChartPng(plan.original, plan.chartType, plan.options)), pngHash(await renderChartPng(plan.edited, plan.chartType, plan.options))];
        expect(imagesFor(item.original.query)).toEqual(drawn.sort());
      }
      // Each file holds its condition's answers: the fake gives the label to a factual question, the answer to a hypothetical one it sees a chart with.
      const predictions = (condition: string) => z.array(z.object({ id: z.string(), prediction: z.string().nullable() })).parse(JSON.parse(readFileSync(join(dir, `p.${condition}.json`), 'utf8')));
      expect(predictions('hqa').map((p) => p.prediction)).toEqual(items.map((item) => item.answer));
      expect(predictions('no_image').map((p) => p.prediction)).toEqual(items.map((item) => item.original.label));
      expect(predictions('counterfactual_image').map((p) => [p.id, p.prediction])).toEqual(drawable().map((item) => [item.id, item.original.label]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
