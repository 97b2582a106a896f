import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evalApi, EvalRunResponseSchema } from '../../shared/api/evaluations';
import { declineRate, roundTo } from '../../shared/eval/metrics';
import { ChartHqaExportV1Schema, type ChartHqaItem } from '../../shared/export/chart-hqa';
import { addAcceptedDifferentItem } from '../support/different-item';
import { TestClient } from '../support/http-client';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { EvalRunPage, EvaluationPage } from './pages/evaluation-page';
import { SignedInBrowsers, screenshot, type Credentials } from './signed-in-browsers';
import { exportApi } from '../../shared/api/export';
import { setItemStatus } from '../support/factories';
import { pageSend } from './page-call';

const CURATOR = { username: 'cora', password: 'curator-pass-1' };
const REVIEWER = { username: 'rev', password: 'reviewer-pass-1' };
/** The factual baseline asks no model; the wait is generous for a loaded CI box. */
const RUN_DONE_TIMEOUT_MS = 30_000;
/** Model output is data: if the page ever rendered it as HTML, this would set `window.__xss`. */
const XSS_RAW = '<img src=x onerror="window.__xss=1">';
const WRONG_ANSWER = 'surely-not-the-answer';

let server: TestServer;
let api: TestClient;
let dir: string;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  server = await startTestServer();
  const run = await generateItems(server, 8);
  setItemStatus(server.server.ctx.db, 'accepted', { runId: run });
  // One question that is not the factual question under an assumption: the page says it was left out.
  addAcceptedDifferentItem(server.server.ctx.db);
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
  api = new TestClient(server.url);
  await api.login(CURATOR.username, CURATOR.password);
  dir = mkdtempSync(join(tmpdir(), 'hqa-e2e-eval-'));
});

afterEach(() => browsers.closeAll());

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `user` signed in to a browser of their own, on no page yet: each test opens the Evaluation page next. */
const signIn = (user: Credentials) => browsers.signIn(server.url, user, null);

/** Relaxed accuracy of a run as the page prints it, computed from the stored verdicts. */
function storedAccuracy(runId: number): string {
  const { correct, items } = server.server.ctx.db
    .prepare('SELECT SUM(correct) AS correct, COUNT(*) AS items FROM eval_results WHERE run_id = ?')
    .get(runId) as { correct: number; items: number };
  return `${roundTo((100 * correct) / items).toFixed(2)}%`;
}

async function acceptedItems(): Promise<ChartHqaItem[]> {
  // The export is the dataset's own view of the accepted items: its ids and gold answers.
  return ChartHqaExportV1Schema.parse((await api.send(exportApi.download, { body: { format: 'chart-hqa' } })).body).items;
}

function writeJson(name: string, data: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(data));
  return path;
}

describe('model evaluation in the browser', () => {
  it('a curator runs the factual baseline, compares models, imports predictions and drills into them; another user watches live', async () => {
    // A reviewer with the page open before any run exists: runs can only reach it over the socket.
    const watcher = await new EvaluationPage(await signIn(REVIEWER), server.url).goto();
    await watcher.page.getByText('No evaluation runs yet.').waitFor();
    expect(await watcher.startForm.count()).toBe(0);
    expect(await watcher.importForm.count()).toBe(0);

    const page = await signIn(CURATOR);
    const evaluation = await new EvaluationPage(page, server.url).goto();
    // Anything from here on must arrive without a reload.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    // No API key on the test server: only the factual baseline can run, and the form says so.
    expect(await evaluation.engine.inputValue()).toBe('factual-baseline');
    expect(await evaluation.engine.locator('option[value="openai"]').isDisabled()).toBe(true);
    await expect.poll(() => evaluation.engineNote.textContent()).toContain('No OPENAI_API_KEY');

    // The shared schema refuses a concurrency of 0 on its field, before anything is sent.
    await evaluation.startForm.getByLabel('Concurrency', { exact: true }).fill('0');
    await evaluation.startForm.getByRole('button', { name: 'Start run' }).click();
    await expect.poll(() => evaluation.startFieldError('Concurrency')).toBeTruthy();
    expect(await evaluation.startResult.count()).toBe(0);
    await evaluation.startForm.getByLabel('Concurrency', { exact: true }).fill('2');

    const hqaRun = await evaluation.startBaselineRun('Hypothetical');
    await expect.poll(() => evaluation.runStatus(hqaRun), { timeout: RUN_DONE_TIMEOUT_MS }).toBe('done');
    const hqaRow = evaluation.runRow(hqaRun);
    expect(await hqaRow.getByTestId('eval-model').textContent()).toBe('factual-baseline');
    expect(await hqaRow.locator('td[data-mode]').textContent()).toBe('Hypothetical');
    const progress = hqaRow.getByTestId('eval-progress');
    await expect.poll(() => progress.getAttribute('data-finished')).toBe(await progress.getAttribute('data-total'));
    expect(await hqaRow.getByTestId('eval-accuracy').textContent()).toBe(storedAccuracy(hqaRun));

    // The other session saw it arrive and finish.
    await expect.poll(() => watcher.runStatus(hqaRun), { timeout: RUN_DONE_TIMEOUT_MS }).toBe('done');

    const originalRun = await evaluation.startBaselineRun('Factual (ChartQA baseline)');
    expect(originalRun).not.toBe(hqaRun);
    await expect.poll(() => evaluation.runStatus(originalRun), { timeout: RUN_DONE_TIMEOUT_MS }).toBe('done');
    await expect.poll(() => watcher.runStatus(originalRun), { timeout: RUN_DONE_TIMEOUT_MS }).toBe('done');

    // Table 3: the baseline answers every factual question with its own label, and the
    // hypothetical ones only where the assumption leaves the answer as it was.
    await expect.poll(() => evaluation.accuracyCell('factual-baseline', 'qa').textContent()).toBe('100.00%');
    expect(await evaluation.accuracyCell('factual-baseline', 'hqa').textContent()).toBe(storedAccuracy(hqaRun));
    expect(await evaluation.accuracyCell('factual-baseline', 'no-image').textContent()).toBe('—');
    // Beside the decline and bias rates: the different question they left out, and what the baseline's figures mean.
    expect(await evaluation.accuracyCell('factual-baseline', 'left-out').textContent()).toBe('1');
    const same = server.server.ctx.db
      .prepare("SELECT SUM(correct) AS correct, COUNT(*) AS items FROM eval_results WHERE run_id = ? AND question_relation = 'same'")
      .get(hqaRun) as { correct: number; items: number };
    expect(await evaluation.accuracyCell('factual-baseline', 'decline').textContent()).toBe(`${roundTo(declineRate(100, (100 * same.correct) / same.items) ?? 0).toFixed(2)}%`);
    expect(await evaluation.accuracyCell('factual-baseline', 'bias').textContent()).toBe('100.00%');
    expect(await evaluation.baselineNote.isVisible()).toBe(true);
    expect(await evaluation.baselineNote.textContent()).toMatch(/answers every hypothetical question with its factual label.*bias rate is 100% by construction/);
    expect(await evaluation.answerTypeRow('factual-baseline').locator('td').count()).toBe(5);
    await expect.poll(() => evaluation.answerTypeChart.getAttribute('data-state')).toBe('drawn');
    expect(await evaluation.answerTypeChart.locator('svg').count()).toBe(1);

    // Import: a file the client cannot read, ids the server does not know, then a good one.
    const items = await acceptedItems();
    expect(items.length).toBeGreaterThanOrEqual(3);
    await evaluation.choosePredictions(writeJson('broken.json', [{ id: items[0]?.id, prediction: '1' }, { id: 7, prediction: '2' }]));
    await expect.poll(() => evaluation.importFileError()).toMatch(/^broken\.json: \[1\]\.id: /);

    await evaluation.choosePredictions(writeJson('unknown.json', [{ id: 'chq-999999', prediction: '1', raw: 'Answer: 1' }]));
    await evaluation.submitImport('imported-model');
    await expect.poll(() => evaluation.importFileError()).toMatch(/^predictions\[0\]\.id: .*not an accepted item/);

    const [wrong, xss, ...rest] = items as [ChartHqaItem, ChartHqaItem, ...ChartHqaItem[]];
    const predictions = [
      { id: wrong.id, prediction: WRONG_ANSWER, raw: `Answer: ${WRONG_ANSWER}` },
      { id: xss.id, prediction: xss.answer, raw: XSS_RAW },
      ...rest.map((item) => ({ id: item.id, prediction: item.answer, raw: `Answer: ${item.answer}` })),
    ];
    await evaluation.choosePredictions(writeJson('predictions.json', predictions));
    await expect.poll(() => evaluation.importFileError()).toBeNull();
    await evaluation.submitImport('imported-model');
    const importedRun = await evaluation.importedRunId();
    await expect.poll(() => evaluation.accuracyCell('imported-model', 'hqa').textContent()).toBe(storedAccuracy(importedRun));
    // Questions both models got wrong, as the database has them, listed with each model's answer.
    const unsolved = server.server.ctx.db
      .prepare(
        `SELECT item_id FROM eval_results WHERE run_id IN (?, ?) GROUP BY item_id HAVING COUNT(*) = 2 AND SUM(COALESCE(correct, 0)) = 0`,
      )
      .all(hqaRun, importedRun) as { item_id: number }[];
    await expect.poll(() => page.getByTestId('unsolved-total').textContent()).toBe(String(unsolved.length));
    expect(await page.getByTestId('unsolved-table').locator('tbody tr').count()).toBe(Math.min(unsolved.length, 50));
    await expect.poll(() => watcher.runStatus(importedRun)).toBe('done');
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await screenshot(page, 'evaluation-page');

    // The run page: its score, then only the wrong answer under outcome=wrong (kept in the URL).
    await evaluation.importResult.getByRole('link').click();
    await page.waitForURL(new RegExp(`/evaluation/runs/${importedRun}$`));
    const run = await new EvalRunPage(page).waitForLoad();
    expect(await run.status.textContent()).toBe('done');
    expect(await run.accuracy.textContent()).toBe(storedAccuracy(importedRun));
    await expect.poll(() => run.resultIds()).toEqual(items.map((item) => item.id));
    // Where it fails: the changed/kept split covers every question.
    const sliceItems = async (testId: string) => Number(((await page.getByTestId(testId).locator('td').nth(1).textContent()) ?? '').split('/')[1]);
    // (The page opens on the import's answer, whose breakdown is still to come, then shows the fetched one.)
    await expect.poll(async () => (await sliceItems('breakdown-changed')) + (await sliceItems('breakdown-kept'))).toBe(items.length);
    // The answers download in hqa eval's format, exactly as imported.
    const [downloaded] = await Promise.all([page.waitForEvent('download'), page.getByTestId('eval-predictions-download').click()]);
    expect(JSON.parse(readFileSync((await downloaded.path()) ?? '', 'utf8'))).toEqual(predictions);

    await run.outcome.selectOption('wrong');
    await page.waitForURL(/outcome=wrong/);
    await expect.poll(() => run.resultIds()).toEqual([wrong.id]);
    expect(await run.resultRow(wrong.id).getByTestId('result-prediction').textContent()).toBe(WRONG_ANSWER);
    expect(await run.resultRow(wrong.id).getByTestId('result-correct').getAttribute('data-correct')).toBe('false');
    const { results: apiWrong } = await api.call(evalApi.results, { params: { id: importedRun }, query: { outcome: 'wrong' } });
    expect(apiWrong.map((result) => result.id)).toEqual([wrong.id]);

    // The reply that looks like markup is shown as text, and nothing ran.
    await run.outcome.selectOption('correct');
    await expect.poll(() => run.resultIds()).toContain(xss.id);
    await run.resultRow(xss.id).click();
    const detail = run.detailOf(xss.id);
    expect(await detail.getByTestId('result-raw').textContent()).toBe(XSS_RAW);
    expect(await detail.locator('img').count()).toBe(0);
    expect(await detail.getByTestId('result-original-label').textContent()).toContain(xss.original.label);
    const itemLink = await detail.getByTestId('result-item-link').getAttribute('href');
    expect(itemLink).toMatch(/^\/items\/\d+$/);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    await screenshot(page, 'eval-run-page');

    // The keyboard: j moves from the clicked row to the next, Enter opens that one.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const ids = await run.resultIds();
    const next = ids[ids.indexOf(xss.id) + 1];
    if (!next) throw new Error('the XSS row should not be the last correct one');
    await page.keyboard.press('j');
    await expect.poll(() => run.resultRow(next).getAttribute('aria-selected')).toBe('true');
    expect(await run.resultRow(next).getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    await expect.poll(() => run.resultRow(next).getAttribute('aria-expanded')).toBe('true');

    // The filter survives a reload.
    await page.reload();
    await new EvalRunPage(page).waitForLoad();
    expect(await run.outcome.inputValue()).toBe('correct');
    expect(await run.resultIds()).not.toContain(wrong.id);
  });

  it('a reviewer sees the runs and their scores but cannot start or import', async () => {
    const page = await signIn(REVIEWER);
    const evaluation = await new EvaluationPage(page, server.url).goto();
    await evaluation.runList.waitFor();
    expect(await evaluation.runList.locator('tbody tr').count()).toBeGreaterThan(0);
    await page.getByText('Curators start evaluation runs').waitFor();
    expect(await evaluation.startForm.count()).toBe(0);
    expect(await evaluation.importForm.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    expect((await pageSend(page, evalApi.create, { body: { engine: 'factual-baseline' } })).status).toBe(403);
  });

  it('a curator starts one run over several conditions and reads each condition’s accuracy and the gaps between them', async () => {
    const page = await signIn(CURATOR);
    const evaluation = await new EvaluationPage(page, server.url).goto();
    const runId = await evaluation.startBaselineRun('Hypothetical', 'No image (control)', 'Counterfactual image', 'Drawn original (style control)');
    await expect.poll(() => evaluation.runStatus(runId), { timeout: RUN_DONE_TIMEOUT_MS }).toBe('done');
    const { run } = EvalRunResponseSchema.parse((await api.send(evalApi.get, { params: { id: runId } })).body);
    expect(run.conditions.map((c) => c.condition)).toEqual(['hqa', 'no_image', 'counterfactual_image', 'drawn_original']);

    await evaluation.startResult.getByRole('link', { name: `run #${runId}` }).click();
    const runPage = await new EvalRunPage(page).waitForLoad();
    // The page may open on the start's cached snapshot (a baseline run can finish before its POST
    // answers) and then show the fetched run: once it says done, every figure on it is the finished run's.
    await expect.poll(async () => (await runPage.status.textContent())?.trim()).toBe('done');
    const table = page.getByTestId('eval-conditions');
    // Each condition's accuracy from its own questions: the baseline gives every factual label, right for the drawn original.
    for (const condition of run.conditions) {
      const { correct, items } = server.server.ctx.db
        .prepare("SELECT COALESCE(SUM(correct), 0) AS correct, COUNT(*) AS items FROM eval_results WHERE run_id = ? AND condition = ? AND status != 'skipped'")
        .get(runId, condition.condition) as { correct: number; items: number };
      expect(await table.getByTestId(`condition-accuracy-${condition.condition}`).textContent()).toBe(`${roundTo((100 * correct) / items).toFixed(2)}%`);
    }
    expect(await table.getByTestId('condition-accuracy-drawn_original').textContent()).toBe('100.00%');
    // Imagining vs seeing: the hypothetical question against the factual one on the counterfactual drawing, in points.
    const gap = run.gaps.find((g) => g.id === 'imagining_vs_seeing');
    expect(gap?.points).not.toBeNull();
    const points = gap?.points ?? 0;
    expect(await page.getByTestId('gap-imagining_vs_seeing').textContent()).toBe(`${points > 0 ? '+' : points < 0 ? '−' : '±'}${Math.abs(points).toFixed(2)} pts`);
    expect(await page.getByTestId('eval-gaps').locator('tbody tr').count()).toBe(run.gaps.length);
    await screenshot(page, 'evaluation-conditions');
  });
});
