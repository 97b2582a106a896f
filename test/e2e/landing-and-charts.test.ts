import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { itemsApi } from '../../shared/api/items';
import { overviewApi, type OverviewResponse } from '../../shared/api/overview';
import { NextResponseSchema, reviewApi } from '../../shared/api/review';
import { TestClient } from '../support/http-client';
import { acceptReview, generateItems, rejectReview } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { UI_TIMEOUT_MS } from './browser';
import { ItemCharts } from './pages/item-charts';
import { OverviewPage } from './pages/overview-page';
import { ReviewPage } from './pages/review-page';
import { screenshot, SignedInBrowsers } from './signed-in-browsers';
import { settingsApi } from '../../shared/api/settings';

/** Issue 16, points 2 and 3: each role lands where it works; every page about an item shows its charts. */

const ITEMS = 10;
const users = {
  root: { username: 'root', password: 'root-password-1' },
  cora: { username: 'cora', password: 'cora-password-1' },
  ann: { username: 'ann', password: 'ann-password-1' },
  ben: { username: 'ben', password: 'ben-password-1' },
  cid: { username: 'cid', password: 'cid-password-1' },
};

let server: TestServer;
let curator: TestClient;
let ann: TestClient;
/** The item ann and ben disagreed on: it waits for a curator. */
let disputed: number;
const browsers = new SignedInBrowsers();

async function client(user: { username: string; password: string }): Promise<TestClient> {
  const c = new TestClient(server.url);
  await c.login(user.username, user.password);
  return c;
}

async function claim(c: TestClient): Promise<number> {
  const res = await c.send(reviewApi.next, { body: {} });
  const id = NextResponseSchema.parse(res.body).task?.item.id;
  if (id === undefined) throw new Error(`no item to claim: ${JSON.stringify(res.body)}`);
  return id;
}

async function overviewFromApi(): Promise<OverviewResponse> {
  return await curator.call(overviewApi.get);
}

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, ITEMS);
  await server.createUser('root', 'admin', users.root.password);
  await server.createUser('cora', 'curator', users.cora.password);
  for (const name of ['ann', 'ben', 'cid'] as const) await server.createUser(name, 'reviewer', users[name].password);
  const admin = await client(users.root);
  curator = await client(users.cora);
  ann = await client(users.ann);
  const ben = await client(users.ben);

  // Two reviews per item: ann accepts and ben rejects the same item, so it needs adjudication.
  expect((await admin.send(settingsApi.update, { body: { reviews_per_item: 2, consensus_rule: 'majority' } })).status).toBe(200);
  disputed = await claim(ann);
  expect(await claim(ben)).toBe(disputed);
  expect((await ann.send(reviewApi.submit, { params: { id: disputed }, body: acceptReview() })).status).toBe(201);
  expect((await ben.send(reviewApi.submit, { params: { id: disputed }, body: rejectReview() })).status).toBe(201);
  const item = (await curator.call(itemsApi.get, { params: { id: disputed } })).item;
  expect(item.status).toBe('needs_adjudication');
  // The counterfactual chart is drawn from the item's edit: the test needs one that has an edit.
  if (item.edit === null) throw new Error(`item ${disputed} of the offline run has no edit: no counterfactual chart to check`);
  expect((await admin.send(settingsApi.update, { body: { reviews_per_item: 1 } })).status).toBe(200);
});

afterEach(async () => {
  await browsers.closeAll();
});

afterAll(async () => {
  await server?.close();
});

/** Opens the chart's zoom dialog with `open`, checks it holds the chart large and the table, closes it with Esc. */
async function zoomAndClose(page: Page, charts: ItemCharts, trigger: 'original' | 'counterfactual', open: () => Promise<void>): Promise<void> {
  const button = trigger === 'original' ? charts.enlargeOriginal : charts.enlargeCounterfactual;
  const url = page.url();
  await open();
  await charts.zoom.waitFor();
  const large = trigger === 'original' ? charts.zoom.getByTestId('zoomed-original-image') : charts.zoom.locator('[data-testid="zoomed-counterfactual-chart"][data-state="drawn"]');
  await large.waitFor();
  await charts.zoomTable().waitFor();
  expect(await charts.zoomTable().locator('tbody tr').count()).toBeGreaterThan(0);
  // Larger than in place.
  const small = (await button.boundingBox())?.width ?? 0;
  const big = (await large.boundingBox())?.width ?? 0;
  expect(big).toBeGreaterThan(small);
  await screenshot(page, `zoom-${trigger}-${new URL(url).pathname.split('/')[1]}`);

  await page.keyboard.press('Escape');
  await charts.zoom.waitFor({ state: 'detached' });
  // Focus is back on the chart that opened it, and Esc did not leave the page.
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')).toMatch(trigger === 'original' ? /^Enlarge Original chart/ : /^Enlarge Counterfactual chart/);
  expect(page.url()).toBe(url);
}

describe('each role lands where it works', () => {
  it('fetches every page once a tab has its first screen, and notes it for this build (a reload then fetches none: preload-pages.test.ts)', async () => {
    const page = await browsers.signIn(server.url, users.cid, null);
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto(`${server.url}/review`);
    await page.getByRole('heading', { level: 1, name: 'Review' }).waitFor();
    // A reviewer never opens Admin, yet its code is fetched with every other page's.
    await expect.poll(() => fetched.filter((path) => /^\/assets\/admin-page-[\w-]+\.js$/.test(path))).toHaveLength(1);
    const notes = await page.evaluate(() => Object.keys(sessionStorage));
    expect(notes.filter((key) => key.startsWith('hqa.pages-preloaded:'))).toEqual([expect.stringMatching(new RegExp(`^hqa\\.pages-preloaded:${server.url}/assets/index-[\\w-]+\\.js$`))]);
  });

  it('a reviewer signs in and lands on Review with an item', async () => {
    const page = await browsers.signIn(server.url, users.cid);
    await page.waitForURL(/\/review$/, { timeout: UI_TIMEOUT_MS });
    const review = new ReviewPage(page, server.url);
    await page.getByRole('heading', { level: 1, name: 'Review' }).waitFor();
    const shown = await review.shownItemId();
    expect(shown).toBeGreaterThan(0);

    // Review's charts enlarge too; the review keys do not fire behind the dialog.
    const charts = new ItemCharts(page, page.getByTestId('review-workspace'));
    await charts.enlargeOriginal.click();
    await charts.zoom.getByTestId('zoomed-original-image').waitFor();
    await page.keyboard.press('?');
    expect(await review.keysOverlay.count()).toBe(0);
    await page.keyboard.press('Escape');
    await charts.zoom.waitFor({ state: 'detached' });
    expect(await review.shownItemId()).toBe(shown);
    await page.keyboard.press('?');
    await review.keysOverlay.waitFor();
    // The overview is not in a reviewer's navigation.
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).count()).toBe(0);
  });

  it('a curator lands on the overview and sees the figures, which follow a decision live', async () => {
    const page = await browsers.signIn(server.url, users.cora);
    await page.waitForURL(/\/overview$/, { timeout: UI_TIMEOUT_MS });
    const overview = new OverviewPage(page);
    await overview.heading.waitFor();
    const before = await overviewFromApi();
    expect(before.awaiting_adjudication).toBe(1);
    await expect.poll(() => overview.value('queue').textContent()).toBe(String(before.queue.total));
    expect(await overview.value('adjudication').textContent()).toBe('1');
    expect(await overview.value('runs').textContent()).toBe('0');
    expect(await overview.value('pass-rate').textContent()).toBe('none decided');
    await screenshot(page, 'overview');
    expect(await overview.figure('queue').textContent()).toContain(`${before.queue.pending} waiting, ${before.queue.in_review} in review`);

    // Ann decides an item: the page follows without a reload.
    const item = await claim(ann);
    expect((await ann.send(reviewApi.submit, { params: { id: item }, body: acceptReview() })).status).toBe(201);
    await overview.value('pass-rate').filter({ hasText: '100.0 % (1 / 1)' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await expect.poll(() => overview.value('queue').textContent()).toBe(String(before.queue.total - 1));

    // Each figure links to where it is worked on.
    await overview.figure('adjudication').getByRole('link', { name: 'Adjudicate' }).click();
    await page.waitForURL(/\/adjudication$/);
  });
});

describe('every page about an item shows its charts', () => {
  it('the Item page shows the original chart, the counterfactual chart and the table; a chart enlarges with the table beside and Esc closes it', async () => {
    const page = await browsers.signIn(server.url, users.cora, null);
    await page.goto(`${server.url}/items/${disputed}`);
    await page.getByRole('heading', { level: 1, name: `Item #${disputed}` }).waitFor();
    const charts = new ItemCharts(page, page.locator('main'));
    await charts.drawn();
    expect(await charts.table.locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'item-page');

    await zoomAndClose(page, charts, 'counterfactual', () => charts.enlargeCounterfactual.click());
    // By keyboard: the chart is a button.
    await zoomAndClose(page, charts, 'original', async () => {
      await charts.enlargeOriginal.focus();
      await page.keyboard.press('Enter');
    });
  });

  it('the Adjudication page shows both charts and the table for each case, with the same zoom', async () => {
    const page = await browsers.signIn(server.url, users.cora, null);
    await page.goto(`${server.url}/adjudication`);
    await page.getByRole('heading', { level: 1, name: 'Adjudication' }).waitFor();
    const charts = new ItemCharts(page, page.locator(`[data-testid="adjudication-case"][data-item-id="${disputed}"]`));
    await charts.drawn();
    expect(await charts.table.locator('tbody tr').count()).toBeGreaterThan(0);

    await zoomAndClose(page, charts, 'original', () => charts.enlargeOriginal.click());
    await zoomAndClose(page, charts, 'counterfactual', async () => {
      await charts.enlargeCounterfactual.focus();
      await page.keyboard.press('Enter');
    });
  });
});
