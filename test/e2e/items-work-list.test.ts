import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ItemStatus } from '../../shared/domain/generation';
import { requeue } from '../../server/review/review-service';
import { buildChart, buildItem, buildQa } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { ItemsListPage } from './pages/items-list-page';
import { signInSession } from './signed-in-browsers';

/**
 * The Items page as a curator's work list in Chromium: search from the keyboard, a flag
 * filter, the pager following cursors, every one of them surviving a reload through the URL,
 * and a bulk re-queue of a whole filter after a confirmation that states the count.
 */

const CURATOR = { username: 'cora', password: 'curator-pass-1' };
const ITEMS = 60;
const STATUSES: ItemStatus[] = ['pending', 'accepted', 'rejected'];

let server: TestServer;
let session: BrowserSession | undefined;
let searched = 0;
let stale: number[] = [];
const db = () => server.server.ctx.db;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  const qa = buildQa(db(), { chartId: buildChart(db()), query: 'What were the sales in 2020?', label: '20' });
  for (let i = 0; i < ITEMS - 1; i++) {
    buildItem(db(), { qaId: qa, draft: { assumption: `Suppose the sales changed, case ${i}.`, question: `Suppose the sales changed, case ${i}. What were the sales in 2020?` }, status: STATUSES[i % STATUSES.length] });
  }
  searched = buildItem(db(), { qaId: qa, draft: { assumption: 'Suppose hypothetically that Quetzalcoatl kept the shop.' }, status: 'pending' });
  stale = [3, 4];
  requeue(db(), stale, null, 'table_changed');
});

afterAll(async () => {
  await server?.close();
});

afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** The curator signed in to a browser of their own, on no page yet: each test opens its own. */
async function signIn(): Promise<Page> {
  session = await openBrowser();
  await signInSession(session, server.url, CURATOR, null);
  return session.page;
}

const rowIds = (items: ItemsListPage) => items.list.locator('tbody tr').evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-item-id'))));
const search = (page: Page) => new URL(page.url()).searchParams;
const count = (status: ItemStatus) => (db().prepare('SELECT COUNT(*) AS n FROM hqa_items WHERE status = ?').get(status) as { n: number }).n;

describe('the Items page as a work list', () => {
  it('searches from the keyboard, filters by a flag, turns pages by cursor, and keeps each in the URL through a reload', async () => {
    const page = await signIn();
    const items = await new ItemsListPage(page, server.url).goto();

    // `/` focuses the search; Enter searches and leaves the field.
    await page.keyboard.press('/');
    await page.keyboard.type('quetzal');
    await page.keyboard.press('Enter');
    await expect.poll(() => rowIds(items)).toEqual([searched]);
    expect(search(page).get('q')).toBe('quetzal');
    await page.reload();
    await expect.poll(() => rowIds(items)).toEqual([searched]);
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('quetzal');

    // A flag filter, instead of the search.
    await items.goto();
    await page.getByLabel('Stale').selectOption('true');
    await expect.poll(() => rowIds(items)).toEqual([...stale].reverse());
    expect(search(page).get('stale')).toBe('true');
    await page.reload();
    await expect.poll(() => rowIds(items)).toEqual([...stale].reverse());
    expect(await page.getByLabel('Stale').inputValue()).toBe('true');

    // The pager: → follows the next cursor, the URL holds it, a reload shows the same page, ← goes back to the plain first page.
    await items.goto();
    await expect.poll(() => rowIds(items).then((ids) => ids.length)).toBe(25);
    const first = await rowIds(items);
    await page.keyboard.press('ArrowRight');
    const second = first.map((id) => id - 25);
    await expect.poll(() => rowIds(items)).toEqual(second);
    expect(await page.getByTestId('pager-range').textContent()).toBe(`26–50 of ${ITEMS}`);
    expect(search(page).get('page')).toBe('2');
    expect(search(page).get('cursor')).toBeTruthy();
    await page.reload();
    await expect.poll(() => rowIds(items)).toEqual(second);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => rowIds(items)).toEqual(first);
    expect(search(page).has('cursor')).toBe(false);
  });

  it('re-queues every item of a filter after a confirmation that states the count; Escape backs out', async () => {
    const accepted = count('accepted');
    expect(accepted).toBeGreaterThan(0);
    const page = await signIn();
    const items = await new ItemsListPage(page, server.url).goto('status=accepted');
    const ask = items.bulkBar.getByRole('button', { name: `Re-queue all ${accepted} items matching…` });

    await ask.click();
    const dialog = items.bulkBar.getByRole('alertdialog', { name: 'Confirm re-queue' });
    expect(await dialog.textContent()).toContain(`Re-queue ${accepted} items?`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(count('accepted')).toBe(accepted);

    // The confirm button has focus: Enter confirms.
    await ask.click();
    await dialog.getByRole('button', { name: 'Confirm re-queue' }).waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => items.bulkBar.getByRole('status').textContent()).toBe(`${accepted} items re-queued.`);
    await page.getByText('No items match these filters.').waitFor();
    expect(count('accepted')).toBe(0);
  });
});
