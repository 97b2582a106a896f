import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evalApi, EvalRunResponseSchema, PUBLISHED_TSV_MAX_CHARS } from '../../shared/api/evaluations';
import { ChartHqaExportV1Schema } from '../../shared/export/chart-hqa';
import { readPaperTableFile } from '../support/chart-hqa-paper';
import { TestClient } from '../support/http-client';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { UI_TIMEOUT_MS } from './browser';
import { EvaluationPage } from './pages/evaluation-page';
import { PublishedFiguresPanel } from './pages/published-figures-panel';
import { SignedInBrowsers, screenshot, type Credentials } from './signed-in-browsers';
import { exportApi } from '../../shared/api/export';
import { setItemStatus } from '../support/factories';

const CURATOR = { username: 'cora', password: 'curator-pass-1' };
const REVIEWER = { username: 'rev', password: 'reviewer-pass-1' };
const MODEL = 'half-right-7b';
const SOURCE = 'Chart-HQA paper (arXiv 2503.04095), Table 3';
const TABLE3 = readPaperTableFile('table3.tsv');
const TABLE4 = readPaperTableFile('table4.tsv');
/** Table 3's rows whose printed decline rate does not follow from their own accuracies (the paper's errors; its folder's README). */
const ERRATA = [
  { model: 'ChartVLM-L', printed: '63.70', recomputed: '67.65' },
  { model: 'GPT-4V', printed: '28.01', recomputed: '28.04' },
];

let server: TestServer;
let dir: string;
/** The evaluated model's Chart-HQA accuracy as the page prints it. */
let modelAccuracy: string;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  server = await startTestServer();
  const run = await generateItems(server, 8);
  setItemStatus(server.server.ctx.db, 'accepted', { runId: run });
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
  const api = new TestClient(server.url);
  await api.login(CURATOR.username, CURATOR.password);
  // One model evaluated here: its predictions imported, right on every other item, so it lands
  // among the published rows rather than above or below them all.
  const items = ChartHqaExportV1Schema.parse((await api.send(exportApi.download, { body: { format: 'chart-hqa' } })).body).items;
  const predictions = items.map((item, i) => ({ id: item.id, prediction: i % 2 === 0 ? item.answer : 'surely-not-the-answer', raw: '' }));
  const imported = await api.send(evalApi.import, { body: { model: MODEL, mode: 'hqa', predictions } });
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  const { run: evalRun } = EvalRunResponseSchema.parse(imported.body);
  expect(evalRun.status).toBe('done');
  const accuracy = evalRun.score.relaxed_accuracy;
  if (accuracy === null) throw new Error('the imported run has no accuracy');
  expect(accuracy, 'half right: between the lowest and highest published Chart-HQA accuracy').toBeGreaterThan(17.22);
  expect(accuracy).toBeLessThan(66.41);
  modelAccuracy = `${accuracy.toFixed(2)}%`;
  dir = mkdtempSync(join(tmpdir(), 'hqa-e2e-published-'));
});

afterEach(() => browsers.closeAll());
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openPanel(user: Credentials): Promise<PublishedFiguresPanel> {
  const page = await browsers.signIn(server.url, user, null);
  await new EvaluationPage(page, server.url).goto();
  const panel = new PublishedFiguresPanel(page);
  await panel.section.waitFor({ timeout: UI_TIMEOUT_MS });
  return panel;
}

describe('published figures on the Evaluation page', () => {
  it('a curator uploads the paper’s Table 3 by keyboard and reads it beside a model evaluated here, published rows marked, the two errata flagged; then Table 4', async () => {
    const panel = await openPanel(CURATOR);
    await panel.empty.waitFor();

    // A file the reader refuses is named under the file field, line and column, before anything is sent.
    const badPath = join(dir, 'table3-bad.tsv');
    writeFileSync(badPath, TABLE3.text.replace('30.79', '30,79'));
    await panel.file.setInputFiles(badPath);
    await expect.poll(() => panel.errorOf(panel.file)).toBe('table3-bad.tsv, line 5, column chart_hqa_acc: "30,79" is not a decimal number such as 83.60');

    // A file past the upload's limit is refused by name before the reader looks at it.
    const hugePath = join(dir, 'huge.tsv');
    writeFileSync(hugePath, TABLE3.text + '\n'.repeat(PUBLISHED_TSV_MAX_CHARS));
    await panel.file.setInputFiles(hugePath);
    await expect.poll(() => panel.errorOf(panel.file)).toMatch(/^huge\.tsv: holds [\d,]+ characters, more than the 200,000 a published table may$/);

    await panel.file.setInputFiles(TABLE3.path);
    await expect.poll(() => panel.fileSummary.textContent()).toBe('table3.tsv: Table 3 (accuracy and decline rate), 18 rows read; 2 printed decline rates flagged as errata.');
    expect(await panel.errorOf(panel.file)).toBeNull();
    // The source typed, then Tab to Upload and Enter.
    await panel.source.focus();
    await panel.page.keyboard.type(SOURCE);
    await panel.page.keyboard.press('Tab');
    expect(await panel.uploadButton.evaluate((button) => button === document.activeElement)).toBe(true);
    await panel.page.keyboard.press('Enter');
    await expect.poll(() => panel.uploadResult.textContent()).toMatch(/^Uploaded table3\.tsv as table #\d+\.$/);

    const listed = panel.tableRow('table3.tsv');
    expect(await listed.locator('td').allTextContents()).toEqual(expect.arrayContaining(['Table 3', SOURCE, '18', '2']));

    // The 18 published rows and the model evaluated here in one table, ranked by Chart-HQA accuracy.
    await panel.accuracyTable.waitFor();
    expect(await panel.accuracyRows('published').count()).toBe(18);
    const order = await panel.accuracyOrder();
    expect(order).toHaveLength(19);
    const hqa = order.map((row) => Number(row.hqa.replace('%', '')));
    expect(hqa).toEqual([...hqa].sort((a, b) => b - a));
    const at = order.findIndex((row) => row.origin === 'evaluated');
    expect(order[at]).toEqual({ model: MODEL, origin: 'evaluated', hqa: modelAccuracy });
    expect(order[at - 1]?.origin).toBe('published');
    expect(order[at + 1]?.origin).toBe('published');
    const evaluated = panel.accuracyRow(MODEL);
    expect(await evaluated.getByTestId('evaluated-badge').textContent()).toMatch(/^evaluated here · \d+ items$/);
    expect(await evaluated.getByTestId('published-badge').count()).toBe(0);

    // Every published row carries the badge and its source; figures as printed.
    expect(await panel.accuracyTable.getByTestId('published-badge').allTextContents()).toEqual(Array(18).fill('published'));
    expect(await panel.accuracyTable.getByTestId('published-source').allTextContents()).toEqual(Array(18).fill(SOURCE));
    const big = panel.accuracyRow('Qwen2.5-VL', '72B');
    expect(await big.locator('td').allTextContents()).toEqual(['89.50%', '66.41%', '25.80%']);

    // Errata: the two rows the paper got wrong, and no other, each saying what its accuracies give.
    const flagged = panel.accuracyTable.locator('tbody tr[data-erratum]');
    expect(await flagged.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-model')))).toEqual(['GPT-4V', 'ChartVLM-L']);
    expect(await panel.accuracyTable.getByTestId('erratum-flag').count()).toBe(2);
    for (const { model, printed, recomputed } of ERRATA) {
      const flag = panel.accuracyRow(model).getByTestId('erratum-flag');
      const reason = (await flag.getAttribute('title')) ?? '';
      expect(reason).toContain(`printed decline rate ${printed}`);
      expect(reason).toContain(`is ${recomputed}`);
      expect(await panel.accuracyRow(model).locator('td[data-col="decline"]').textContent()).toBe(`${printed}% erratum`);
    }
    // The reasons also stand in words under the table, for whoever cannot hover.
    const note = panel.section.getByTestId('errata-note').first();
    expect(await note.locator('li').allTextContents()).toEqual([
      'Erratum, GPT-4V: The printed decline rate 28.01 does not follow from the row: |Acc_QA − Acc_HQA| / Acc_QA × 100 of its two accuracies is 28.04.',
      'Erratum, ChartVLM-L (14.3B): The printed decline rate 63.70 does not follow from the row: |Acc_QA − Acc_HQA| / Acc_QA × 100 of its two accuracies is 67.65.',
    ]);
    // InternVL's 43.125 rounds half-up to the printed 43.13: not flagged.
    expect(await panel.accuracyRow('InternVL-v2.5-8B').getAttribute('data-erratum')).toBeNull();
    await screenshot(panel.page, 'published-figures-table3');

    // A reviewer reads the same comparison, without the upload form or delete buttons.
    const reviewer = await openPanel(REVIEWER);
    await reviewer.accuracyTable.waitFor();
    expect(await reviewer.accuracyRows('published').count()).toBe(18);
    expect(await reviewer.accuracyRows('evaluated').count()).toBe(1);
    expect(await reviewer.uploadForm.count()).toBe(0);
    expect(await reviewer.tables.getByRole('button', { name: /^Delete/ }).count()).toBe(0);

    // Table 4 beside the same model, ranked by each row's Table 3 accuracy: every variance follows from its row.
    await panel.file.setInputFiles(TABLE4.path);
    await expect.poll(() => panel.fileSummary.textContent()).toBe(
      'table4.tsv: Table 4 (accuracy per answer type and variance), 18 rows read; every printed variance follows from its row.',
    );
    await panel.source.fill('Chart-HQA paper (arXiv 2503.04095), Table 4');
    await panel.uploadButton.click();
    await panel.answerTypeTable.waitFor();
    const typeOrder = await panel.answerTypeTable.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-model')));
    expect(typeOrder).toEqual(order.map((row) => row.model));
    expect(await panel.answerTypeTable.getByTestId('published-badge').count()).toBe(18);
    expect(await panel.answerTypeTable.getByTestId('erratum-flag').count()).toBe(0);
    expect(await panel.section.getByTestId('errata-note').count()).toBe(1);
    const bigTypes = panel.answerTypeTable.locator('tbody tr[data-model="Qwen2.5-VL"][data-params="72B"] td');
    expect(await bigTypes.allTextContents()).toEqual(['51.55%', '68.02%', '72.34%', '64.54%', '60.24']);

    // Delete by keyboard: each table and its rows leave the comparison.
    for (const name of ['table3.tsv', 'table4.tsv']) {
      await panel.tableRow(name).getByRole('button', { name: new RegExp(`^Delete ${name.replace('.', '\\.')}`) }).focus();
      await panel.page.keyboard.press('Enter');
      await expect.poll(() => panel.tableRow(name).count()).toBe(0);
    }
    await panel.empty.waitFor();
    expect(await panel.accuracyTable.count()).toBe(0);
    expect(await panel.answerTypeTable.count()).toBe(0);
  });
});
