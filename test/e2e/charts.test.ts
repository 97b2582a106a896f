import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHART_TYPES, CHART_TYPE_LABELS } from '../../shared/domain/chart-types';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { AppFrame } from './pages/app-frame';
import { ChartPage } from './pages/chart-page';
import { ChartsPage } from './pages/charts-page';
import { LoginPage } from './pages/login-page';
import { signInSession } from './signed-in-browsers';
import { chartsApi, ChartDetailResponseSchema, ChartListResponseSchema } from '../../shared/api/charts';
import { pageSend } from './page-call';

const CURATOR = { username: 'cora', password: 'curator-pass-1' };
const REVIEWER = { username: 'remy', password: 'reviewer-pass-1' };

let server: TestServer;
let session: BrowserSession | undefined;

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
});

afterAll(async () => {
  await server?.close();
});

afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** `user` signed in to a browser of their own, on `path` (the charts list unless given). */
async function signIn(user: { username: string; password: string }, path = '/charts') {
  session = await openBrowser();
  await signInSession(session, server.url, user, path);
  return session.page;
}

describe('charts in the browser', () => {
  it('a curator logs in, browses to a demo chart from the list and sees its image, data table and questions', async () => {
    const page = await signIn(CURATOR);
    // The charts list, filled by the demo split imported on first start.
    const charts = new ChartsPage(page, server.url);
    await charts.waitForRows();
    expect(await charts.rows.count()).toBeGreaterThan(0);

    const imgname = await charts.openRow(0);
    const chart = new ChartPage(page);
    await chart.waitForLoad();
    await expect.poll(() => page.getByText(imgname, { exact: true }).count()).toBeGreaterThan(0);

    const cells = await chart.tableCells();
    expect(cells.length).toBeGreaterThan(1);
    expect(cells[0]?.length).toBeGreaterThan(1);
    expect(await chart.imageLoaded()).toBe(true);
    expect(await chart.qaTable.locator('tbody tr').count()).toBeGreaterThan(0);
  });

  it('shows missing table cells distinctly', async () => {
    const page = await signIn(CURATOR);
    // The demo split has `nan` gaps; ask the API (as this session) which chart holds one.
    const list = ChartListResponseSchema.parse((await pageSend(page, chartsApi.list, { query: { q: 'nan', page_size: 200 } })).body);
    let id: number | null = null;
    for (const { id: chartId } of list.charts) {
      const { chart: detail } = ChartDetailResponseSchema.parse((await pageSend(page, chartsApi.get, { params: { id: chartId } })).body);
      if (detail.data_table?.rows.some((row) => row.raw.some((cell) => cell.trim() === 'nan'))) {
        id = chartId;
        break;
      }
    }
    expect(id).not.toBeNull();
    await page.goto(`${server.url}/charts/${id}`);
    const chart = new ChartPage(page);
    await chart.waitForLoad();
    const missing = chart.dataTable.locator('td.cell-missing');
    expect(await missing.count()).toBeGreaterThan(0);
    expect(await missing.first().getAttribute('title')).toBe('Missing value');
    expect(await missing.first().textContent()).toContain('nan');
  });

  it('a curator changes a chart type and sees the new type decided by "curator", also after a reload', async () => {
    const page = await signIn(CURATOR);
    const charts = new ChartsPage(page, server.url);
    await charts.waitForRows();
    await charts.openRow(1);
    const chart = new ChartPage(page);
    await chart.waitForLoad();

    const before = await chart.currentTypeValue();
    const next = CHART_TYPES.find((type) => type !== before && type !== 'other') ?? 'other';
    await chart.changeType(next);

    await expect.poll(() => chart.typeSource.textContent()).toBe('curator');
    expect(await chart.typeText()).toContain(CHART_TYPE_LABELS[next]);

    await page.reload();
    await chart.waitForLoad();
    expect(await chart.currentTypeValue()).toBe(next);
    expect(await chart.typeSource.textContent()).toBe('curator');
  });

  it('a reviewer sees the type read-only, and the server refuses a change with 403', async () => {
    const page = await signIn(REVIEWER);
    const charts = new ChartsPage(page, server.url);
    await charts.waitForRows();
    await charts.openRow(0);
    const chart = new ChartPage(page);
    await chart.waitForLoad();

    expect(await chart.typeArea.isVisible()).toBe(true);
    expect(await chart.typeSelect.count()).toBe(0);

    // The same request the curator's select sends, from the reviewer's session.
    const id = new URL(page.url()).pathname.split('/').pop();
    const { status } = await pageSend(page, chartsApi.update, { params: { id }, body: { chart_type: 'pie' } });
    expect(status).toBe(403);
  });

  it('a type change reaches another signed-in browser live, through the socket', async () => {
    const curatorPage = await signIn(CURATOR);
    const curatorSession = session;
    try {
      const charts = new ChartsPage(curatorPage, server.url);
      await charts.waitForRows();
      await charts.openRow(2);
      const path = new URL(curatorPage.url()).pathname;
      const reviewerPage = await signIn(REVIEWER, path);
      const watcher = new ChartPage(reviewerPage);
      await watcher.waitForLoad();

      const editor = new ChartPage(curatorPage);
      await editor.waitForLoad();
      const next = (await editor.currentTypeValue()) === 'scatter' ? 'area' : 'scatter';
      await editor.changeType(next);

      await expect.poll(() => watcher.typeText(), { timeout: 5_000 }).toContain(CHART_TYPE_LABELS[next]);
      expect(await watcher.typeSource.textContent()).toBe('curator');
    } finally {
      await curatorSession?.close();
      // The reviewer's, when their browser opened.
      if (session !== curatorSession) await session?.close();
      session = undefined;
    }
  });

  it('navigates the list with the keyboard: / searches, j moves, Enter opens', async () => {
    const page = await signIn(CURATOR);
    const charts = new ChartsPage(page, server.url);
    await charts.waitForRows();
    const [, second] = await charts.imgnames();
    expect(second).toBeDefined();

    await page.keyboard.press('/');
    expect(await charts.search.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');

    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await charts.rows.nth(1).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/charts\/\d+$/);
    await new ChartPage(page).waitForLoad();
    expect(await page.getByText(second ?? '', { exact: true }).count()).toBeGreaterThan(0);
  });

  it('keeps search and page in the URL and filters by chart type', async () => {
    const page = await signIn(CURATOR);
    const charts = new ChartsPage(page, server.url);
    await charts.waitForRows();
    await charts.filterByType(CHART_TYPE_LABELS.pie);
    await expect
      .poll(async () => (await charts.rows.locator('td:nth-child(4)').allTextContents()).every((t) => t.startsWith('Pie')))
      .toBe(true);

    const [first = ''] = await charts.imgnames();
    await charts.search.fill(first);
    await page.waitForURL(/q=/);
    await expect.poll(async () => (await charts.imgnames()).every((name) => name.includes(first))).toBe(true);
    await page.reload();
    await charts.waitForRows();
    expect(await charts.search.inputValue()).toBe(first);
    expect(await charts.imgnames()).toContain(first);
    expect(page.url()).toContain('type=pie');
  });

  it('pages through the list with the pager, keeping the page in the URL', async () => {
    const page = await signIn(CURATOR);
    const charts = new ChartsPage(page, server.url);
    await charts.waitForRows();
    const firstPage = await charts.imgnames();
    expect(await charts.pagerRange.textContent()).toMatch(/^1–25 of \d+$/);

    await charts.nextPage.click();
    await page.waitForURL(/page=2/);
    await expect.poll(() => charts.pagerRange.textContent()).toMatch(/^26–50 of \d+$/);
    const secondPage = await charts.imgnames();
    expect(secondPage.some((name) => firstPage.includes(name))).toBe(false);

    await page.goBack();
    await expect.poll(() => charts.pagerRange.textContent()).toMatch(/^1–25 of/);
  });

  it('sends a signed-out visitor to the login page and back to where they were going', async () => {
    session = await openBrowser();
    const { page } = session;
    await page.goto(`${server.url}/charts?type=pie`);
    await page.waitForURL(/\/login\?next=/);
    await new LoginPage(page, server.url).login(CURATOR.username, CURATOR.password);
    await page.waitForURL(/\/charts\?type=pie$/);
    const charts = new ChartsPage(page, server.url);
    // The page has loaded its list while signed in (it arrives as its own chunk after the URL changes).
    await charts.rows.first().waitFor();

    // A session that ends underneath the page (cookie gone): the next request's 401 leads to login.
    await session.context.clearCookies();
    await charts.search.fill('anything-new');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await new AppFrame(page).currentUser.count()).toBe(0);
    expect(page.url()).toContain('/login?next=');
  });
});
