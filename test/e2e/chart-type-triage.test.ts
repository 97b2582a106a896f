import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartsApi } from '../../shared/api/charts';
import { fillPath } from '../../shared/api/endpoint';
import { getChartSummary } from '../../server/charts/chart-queries';
import { importSplit } from '../../server/import/import-split';
import { TestClient } from '../support/http-client';
import { CHARTQA_EXTRA } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, UI_TIMEOUT_MS, type BrowserSession } from './browser';
import { ChartTypeTriagePage } from './pages/chart-type-triage-page';
import { RunPage } from './pages/run-page';
import { RunsPage } from './pages/runs-page';
import { signInSession } from './signed-in-browsers';

/** A curator triages the unconfirmed chart types of the real ChartQA extra split (20 PNGs) by keyboard. */

const SPLIT = 'train';
const CURATOR = { username: 'tina', password: 'curator-pass-7' };
const OTHER = { username: 'omar', password: 'curator-pass-8' };

let server: TestServer;
let session: BrowserSession | undefined;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  importSplit(server.server.ctx.db, CHARTQA_EXTRA);
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  await server.createUser(OTHER.username, 'curator', OTHER.password);
}, 60_000);
afterAll(async () => {
  await session?.close();
  await server.close();
});

const idOf = (imgname: string) => (server.server.ctx.db.prepare('SELECT id FROM charts WHERE split = ? AND imgname = ?').get(SPLIT, imgname) as { id: number }).id;
const typeOf = (id: number) => getChartSummary(server.server.ctx.db, id);
const auditActions = () => (server.server.ctx.db.prepare("SELECT action FROM audit_log WHERE target_type = 'chart' ORDER BY id").all() as { action: string }[]).map((row) => row.action);

describe('the chart-type triage', () => {
  it('confirms with Enter, decides with a type’s key, skips with s, undoes with u, and counts other curators’ decisions live', async () => {
    session = await openBrowser();
    const { page } = session;
    await signInSession(session, server.url, CURATOR, null);
    const triage = await new ChartTypeTriagePage(page).goto(server.url, SPLIT);

    // The lowest id first: a monthly line chart, its table's suggestion right, shown with its PNG.
    const lineChart = idOf('multi_col_101207.png');
    expect(await triage.chartId()).toBe(lineChart);
    expect(await triage.suggested.textContent()).toBe('Line');
    expect(await triage.unconfirmed.textContent()).toBe('20');
    await expect.poll(() => triage.image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: UI_TIMEOUT_MS }).toBe(800);
    // Each type's key is on its button.
    expect(await triage.typeKey('stacked_bar').textContent()).toBe('4 Stacked bar');

    await triage.press('Enter');
    await expect.poll(() => triage.chartId(), { timeout: UI_TIMEOUT_MS }).not.toBe(lineChart);
    expect(typeOf(lineChart)).toMatchObject({ chart_type: 'line', type_source: 'curator', type_confirmed: true });
    await expect.poll(() => triage.unconfirmed.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('19');
    expect(await triage.decidedHere.textContent()).toBe('1');

    // Next: stacked bars over years, which the table took for a line. Its key decides it.
    const stacked = idOf('multi_col_20134.png');
    expect(await triage.chartId()).toBe(stacked);
    expect(await triage.suggested.textContent()).toBe('Line');
    await triage.press('4');
    await expect.poll(() => typeOf(stacked)?.chart_type, { timeout: UI_TIMEOUT_MS }).toBe('stacked_bar');
    await expect.poll(() => triage.last.textContent(), { timeout: UI_TIMEOUT_MS }).toContain('train/multi_col_20134.png Line → Stacked bar');

    // Skip: the next chart, undecided, goes to the back of the queue.
    const skipped = await triage.chartId();
    expect(skipped).toBe(idOf('multi_col_21019.png'));
    await triage.press('s');
    await expect.poll(() => triage.chartId(), { timeout: UI_TIMEOUT_MS }).toBe(idOf('multi_col_40486.png'));
    expect(typeOf(skipped)).toMatchObject({ type_source: 'inferred', type_confirmed: false });

    // Undo: the last decision is taken back and its chart shown again, unconfirmed.
    await triage.press('u');
    await expect.poll(() => triage.chartId(), { timeout: UI_TIMEOUT_MS }).toBe(stacked);
    expect(typeOf(stacked)).toMatchObject({ chart_type: 'line', type_source: 'inferred', type_confirmed: false });
    await expect.poll(() => triage.unconfirmed.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('19');
    await triage.press('4');
    await expect.poll(() => typeOf(stacked)?.chart_type, { timeout: UI_TIMEOUT_MS }).toBe('stacked_bar');
    expect(auditActions()).toEqual(['chart.type_changed', 'chart.type_changed', 'chart.type_change_undone', 'chart.type_changed']);

    // Another curator decides a chart elsewhere: the counts here follow without a reload.
    const other = new TestClient(server.url);
    await other.login(OTHER.username, OTHER.password);
    const horizontal = idOf('two_col_100746.png');
    expect((await other.patch(fillPath(chartsApi.update.path, { id: horizontal }), { chart_type: 'horizontal_bar' })).status).toBe(200);
    await expect.poll(() => triage.unconfirmed.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('17');
    expect(await triage.decidedHere.textContent()).toBe('2');
    // No vision model configured: the button says so and is off.
    expect(await triage.visionButton.isDisabled()).toBe(true);
  }, 60_000);

  it('a run started with “Only charts whose type is confirmed” takes only the questions of the charts decided', async () => {
    if (!session) throw new Error('the triage test signs in first');
    const { page } = session;
    const runs = await new RunsPage(page, server.url).goto();
    await runs.startRun({ stage: 'items', items: 20, order: 'id', confirmedTypesOnly: true });
    await page.waitForURL(/\/runs\/\d+$/);
    const run = new RunPage(page);
    await page.getByText('(only charts whose type is confirmed)').waitFor();
    await expect.poll(() => run.statusText(), { timeout: 30_000 }).toBe('done');
    const planned = server.server.ctx.db
      .prepare("SELECT DISTINCT q.chart_id FROM run_tasks t JOIN factual_qas q ON q.id = t.qa_id WHERE t.run_id = ? AND t.kind = 'item' ORDER BY q.chart_id")
      .all(run.runId()) as { chart_id: number }[];
    // The three charts curators decided above, of twenty: one question each.
    expect(planned.map((row) => row.chart_id)).toEqual([idOf('multi_col_101207.png'), idOf('multi_col_20134.png'), idOf('two_col_100746.png')]);
  }, 60_000);
});
