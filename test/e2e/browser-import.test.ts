import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eligibleQaIds } from '../../server/generation/run-queries';
import { CHARTQA_SAMPLE } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';
import { renameEntry, zipFolder } from '../support/zip-folder';
import { AppFrame } from './pages/app-frame';
import { SplitsPage } from './pages/splits-page';
import { screenshot, SignedInBrowsers } from './signed-in-browsers';

const CURATOR = { username: 'cora', password: 'curator-pass-123' };
const TABLES = readdirSync(join(CHARTQA_SAMPLE, 'tables')).length;

let server: TestServer;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => browsers.closeAll());

describe('importing a split from the browser', () => {
  it('a curator uploads a zip, sees the progress reach every chart and the report, then renames and archives the split', async () => {
    const page = await browsers.signIn(server.url, CURATOR);
    await new AppFrame(page).navigate('Splits');
    const splits = new SplitsPage(page);

    await splits.upload('chartqa-sample.zip', await zipFolder(CHARTQA_SAMPLE, { top: 'chartqa-sample' }));
    await splits.report.waitFor();
    expect(await splits.report.textContent()).toContain(`Imported split test (chartqa)`);
    expect(await splits.report.textContent()).toContain(`${TABLES} charts imported`);
    expect(await splits.report.textContent()).toContain('No file errors.');
    await page.locator('[data-testid="import-progress"][data-phase="import"]').getByText(`${TABLES} of ${TABLES} charts`).waitFor();

    await splits.row('test').waitFor();
    expect(await splits.row('test').locator('td').nth(1).textContent()).toBe(String(TABLES));

    await splits.rename('test', 'ChartQA sample');
    await splits.row('test').getByTestId('split-label').getByText('ChartQA sample').waitFor();

    const planned = () => eligibleQaIds(server.server.ctx.db, { split: 'test', onlyNew: false }).length;
    expect(planned()).toBeGreaterThan(0);
    const confirmation = await splits.archive('test');
    expect(confirmation).toContain('nothing is deleted');
    await splits.row('test').getByTestId('split-state').getByText('Archived').waitFor();
    expect(planned()).toBe(0);
    await page.reload();
    await splits.row('test').getByTestId('split-label').getByText('ChartQA sample').waitFor();
    expect(await splits.row('test').getAttribute('data-archived')).toBe('true');
    await screenshot(page, 'splits-archived');
  });

  it('shows the tables-but-no-questions warning, and a zip-slip refusal naming the entry', async () => {
    const page = await browsers.signIn(server.url, CURATOR);
    await new AppFrame(page).navigate('Splits');
    const splits = new SplitsPage(page);

    await splits.upload('only-tables.zip', await zipFolder(CHARTQA_SAMPLE, { top: 'only-tables', filter: (path) => path.startsWith('tables/') }));
    await splits.warnings.first().waitFor();
    expect(await splits.warnings.first().textContent()).toContain('no question files for split "only-tables"');

    const hostile = renameEntry(await zipFolder(CHARTQA_SAMPLE, { extra: { 'zz/evil.csv': 'a,b\n' } }), 'zz/evil.csv', '../evil.csv');
    await splits.upload('hostile.zip', hostile);
    await splits.refusal.getByText('../evil.csv').waitFor();
    expect(await splits.refusal.textContent()).toContain('Import refused');
    await screenshot(page, 'splits-refused');
  });
});
