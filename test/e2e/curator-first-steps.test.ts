import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runsApi } from '../../shared/api/runs';
import { DEFAULT_ZIP_LIMITS, unpackZip } from '../../server/import/zip-archive';
import { TestClient } from '../support/http-client';
import { CHARTQA_SAMPLE } from '../support/paths';
import { listItemIds, setItemStatus } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';
import { zipFolder } from '../support/zip-folder';
import { AppFrame } from './pages/app-frame';
import { EvaluationPage } from './pages/evaluation-page';
import { OverviewPage } from './pages/overview-page';
import { RunPage } from './pages/run-page';
import { RunsPage } from './pages/runs-page';
import { SplitsPage } from './pages/splits-page';
import { screenshot, SignedInBrowsers } from './signed-in-browsers';

/**
 * A curator's first steps on an empty workbench, through the rough edges issue 33 met: the
 * overview names the next step, a split imports whatever it is named and a wrong one can be
 * deleted, the run form answers in words, a run's expected refusals are not failures, an empty
 * export is refused as the CLI refuses it, and the Hugging Face dataset downloads from the page.
 */

const CURATOR = { username: 'cora', password: 'curator-pass-1' };
const RUN_DONE_TIMEOUT_MS = 60_000;
/**
 * Questions of the sample the run takes: of 30 the rules made 7 items and declined 23, enough of
 * both (the export accepts 3 items). 60 made 18 items and cost the test seconds more.
 */
const RUN_QUESTIONS = 30;

let server: TestServer;
let api: TestClient;
const browsers = new SignedInBrowsers();
const work = mkdtempSync(join(tmpdir(), 'hqa-e2e-first-steps-'));

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  api = new TestClient(server.url);
  await api.login(CURATOR.username, CURATOR.password);
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});
afterEach(() => browsers.closeAll());

const db = () => server.server.ctx.db;

describe('a curator’s first steps, on an empty workbench', () => {
  it('the first overview says to import a split, with the loop’s four steps, and links to the Splits page', async () => {
    const page = await browsers.signIn(server.url, CURATOR, '/overview');
    const overview = new OverviewPage(page);
    await overview.nextSteps.waitFor();
    expect(await overview.nextSteps.getAttribute('data-next')).toBe('import');
    expect(await overview.nextSteps.getByRole('heading').textContent()).toBe('Next: Import a split');
    expect(await overview.nextSteps.locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')))).toEqual(['import', 'run', 'review', 'export']);
    expect(await overview.step('import').getAttribute('aria-current')).toBe('step');
    await screenshot(page, 'overview-first');

    await overview.nextSteps.getByRole('link', { name: 'Import a split' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Splits' }).waitFor();
  });

  it('a split named in the form imports the zip’s questions; a wrong zip warns in the form’s words and is deleted', async () => {
    const page = await browsers.signIn(server.url, CURATOR);
    await new AppFrame(page).navigate('Splits');
    const splits = new SplitsPage(page);
    // The form says, before importing, what the name does not change.
    expect(await splits.splitNameHint.textContent()).toContain('It never changes which files are read');

    await splits.splitName.fill('my-sample');
    await splits.upload('chartqa-sample.zip', await zipFolder(CHARTQA_SAMPLE, { top: 'chartqa-sample' }));
    await splits.report.getByText('Imported split my-sample (chartqa)').waitFor();
    const questions = (db().prepare("SELECT COUNT(*) AS n FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.split = 'my-sample'").get() as { n: number }).n;
    expect(questions).toBeGreaterThan(0);
    expect(await splits.report.textContent()).toContain(`${questions} questions imported`);
    await splits.row('my-sample').waitFor();

    await splits.splitName.fill('');
    await splits.upload('only-tables.zip', await zipFolder(CHARTQA_SAMPLE, { top: 'only-tables', filter: (path) => path.startsWith('tables/') }));
    await splits.warnings.first().waitFor();
    const warning = (await splits.warnings.first().textContent()) ?? '';
    expect(warning).toContain('no question files for split "only-tables"');
    expect(warning).not.toMatch(/--\w/);

    const confirmation = await splits.delete('only-tables');
    expect(confirmation).toContain('no item or run was made from them');
    await expect.poll(() => splits.row('only-tables').count()).toBe(0);
    expect(db().prepare("SELECT COUNT(*) AS n FROM charts WHERE split = 'only-tables'").get()).toEqual({ n: 0 });
    await screenshot(page, 'splits-deleted');
  });

  it('the run form answers a bad number in words naming the field; a run’s expected refusals are "no item possible", not errors', async () => {
    const page = await browsers.signIn(server.url, CURATOR, '/overview');
    const overview = new OverviewPage(page);
    await expect.poll(() => overview.nextSteps.getAttribute('data-next')).toBe('run');

    const runs = await new RunsPage(page, server.url).goto();
    await runs.form.getByLabel(/^Budget, cost in \$/).fill('-1');
    await runs.startRun({ engine: 'offline', stage: 'items', items: RUN_QUESTIONS });
    await runs.form.getByText('Budget, cost in $ must be more than 0').waitFor();
    expect(await runs.form.textContent()).not.toMatch(/Too small|expected number/);

    await runs.form.getByLabel(/^Budget, cost in \$/).fill('');
    await runs.startRun({ engine: 'offline', stage: 'items', items: RUN_QUESTIONS });
    await page.waitForURL(/\/runs\/\d+$/);
    const run = new RunPage(page);
    await expect.poll(() => run.statusText(), { timeout: RUN_DONE_TIMEOUT_MS, interval: 200 }).toBe('done');
    const { run: stored, declines } = await api.call(runsApi.get, { params: { id: run.runId() } });
    // The sample's real questions include some no operation of the rules can change.
    expect(stored.items_declined).toBeGreaterThan(0);
    await expect.poll(() => run.figure(run.itemsDeclined)).toBe(stored.items_declined);
    await expect.poll(() => run.declineRows.count()).toBe(declines.length);
    for (const text of await run.declineRows.locator('.reason-cell').allTextContents()) expect(text).toMatch(/^no item possible: offline rules: /);
    expect(await run.figure(run.itemsFailed)).toBe(stored.items_failed);
    const errors = await run.errorRows.allTextContents();
    expect(errors.filter((text) => text.includes('offline rules'))).toEqual([]);
    await screenshot(page, 'run-no-item-possible');
  });

  it('refuses an empty export on the page with the CLI’s reason, then downloads the Hugging Face dataset as a zip', async () => {
    const page = await browsers.signIn(server.url, CURATOR, null);
    const evaluation = await new EvaluationPage(page, server.url).goto();
    await evaluation.exportRefusal.waitFor();
    const items = (db().prepare('SELECT COUNT(*) AS n FROM hqa_items').get() as { n: number }).n;
    expect(await evaluation.exportRefusal.textContent()).toBe(`Export refused: no accepted items: 0 of ${items} items reviewed yet.`);
    expect(await evaluation.exportDownload.count()).toBe(0);

    // Items accepted (as the review loop would): the download comes back.
    setItemStatus(db(), 'accepted', listItemIds(db(), { limit: 3 }));
    await page.reload();
    await evaluation.exportDownload.waitFor();
    await page.getByLabel(/Hugging Face dataset, zipped/).check();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), evaluation.exportDownload.click()]);
    expect(download.suggestedFilename()).toBe('chart-hqa.zip');
    const unzipped = join(work, 'hf');
    await unpackZip((await download.path()) ?? '', unzipped, DEFAULT_ZIP_LIMITS);
    const dataset = join(unzipped, 'chart-hqa');
    expect(readdirSync(dataset).sort()).toEqual(['README.md', 'counterfactual', 'images', 'metadata.jsonl']);
    const lines = readFileSync(join(dataset, 'metadata.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      const { file_name, counterfactual_image_file_name } = JSON.parse(line) as { file_name: string; counterfactual_image_file_name: string | null };
      expect(existsSync(join(dataset, file_name))).toBe(true);
      // The edited table drawn, for the counterfactual-image condition.
      if (counterfactual_image_file_name !== null) expect(existsSync(join(dataset, counterfactual_image_file_name))).toBe(true);
    }
    await screenshot(page, 'evaluation-hf-export');
  });

  it('the overview follows the loop: with items accepted, the steps give way to the figures', async () => {
    const page = await browsers.signIn(server.url, CURATOR, '/overview');
    const overview = new OverviewPage(page);
    await overview.heading.waitFor();
    await page.getByTestId('overview-queue').waitFor();
    expect(await overview.nextSteps.count()).toBe(0);
  });
});
