import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../../server/import/import-folder';
import { CHARTBENCH_SAMPLE } from '../support/chartbench-sample';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { ChartPage } from './pages/chart-page';
import { ChartsPage } from './pages/charts-page';
import { signInSession } from './signed-in-browsers';
import { dirname } from 'node:path';

/** Benchmark charts in the browser: image only (MultiChartQA, images in its folders) and image missing (ChartBench without --images). */

const CURATOR = { username: 'cora', password: 'curator-pass-1' };
let server: TestServer;
let session: BrowserSession | undefined;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  const db = server.server.ctx.db;
  importFolder(db, MULTICHARTQA_DATA, { format: 'multichartqa' });
  importFolder(db, dirname(CHARTBENCH_SAMPLE), { format: 'chartbench' });
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** The curator signed in to a browser of their own, on no page yet: each test opens its own. */
async function signIn() {
  session = await openBrowser();
  await signInSession(session, server.url, CURATOR, null);
  return session.page;
}

const chartId = (imgname: string) => (server.server.ctx.db.prepare('SELECT id FROM charts WHERE imgname = ?').get(imgname) as { id: number }).id;

describe('charts without a table in the browser', () => {
  it('lists image-only and image-missing charts as such', async () => {
    const page = await signIn();
    const list = await new ChartsPage(page, server.url).goto('?split=chartbench');
    await expect.poll(() => list.rows.first().textContent()).toContain('no table (image only)');
    expect(await list.rows.first().textContent()).toContain('image missing');
    await new ChartsPage(page, server.url).goto('?split=multichartqa');
    const first = page.getByTestId('chart-list').locator('tbody tr').first();
    expect(await first.textContent()).toContain('no table (image only)');
    expect(await first.textContent()).not.toContain('image missing');
  });

  it('shows an image-only chart’s image and questions, and says when the image is missing', async () => {
    const page = await signIn();
    const imgname = (server.server.ctx.db.prepare("SELECT imgname FROM charts WHERE split = 'multichartqa' ORDER BY id LIMIT 1").get() as { imgname: string }).imgname;
    await page.goto(`${server.url}/charts/${chartId(imgname)}`);
    const chart = new ChartPage(page);
    await page.getByTestId('no-table').waitFor();
    expect(await chart.imageLoaded()).toBe(true);
    expect(await chart.qaTable.locator('tbody tr').count()).toBeGreaterThan(0);

    const missing = (server.server.ctx.db.prepare("SELECT imgname FROM charts WHERE split = 'chartbench' ORDER BY id LIMIT 1").get() as { imgname: string }).imgname;
    await page.goto(`${server.url}/charts/${chartId(missing)}`);
    await page.getByTestId('image-missing').waitFor();
    expect(await page.getByTestId('no-table').textContent()).toContain('image missing');
    expect(await page.getByTestId('chart-image').count()).toBe(0);
  });
});
