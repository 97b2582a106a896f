import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { putSettings } from '../../server/settings/settings-queries';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { ItemsListPage } from './pages/items-list-page';
import { ReviewPage } from './pages/review-page';
import { SignedInBrowsers } from './signed-in-browsers';

/**
 * Assignment (issue 16 point 6) in the browser: a curator assigns every item of a filter to a
 * reviewer from the Items page's bulk bar with the keyboard alone, after a confirmation that
 * states the count; the reviewer's Review page says how many are assigned to them and claims
 * one of those first, ahead of older items of the general queue.
 */
let server: TestServer;
const browsers = new SignedInBrowsers();
const db = () => server.server.ctx.db;

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 6);
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('ann', 'reviewer', 'ann-password');
  putSettings(db(), { reviews_per_item: 1, gold_share: 0 });
}, 120_000);
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await browsers.closeAll();
});

describe('assignment in the browser', () => {
  it('a curator assigns a filter to a reviewer with the keyboard; the reviewer’s Review page claims those items first', async () => {
    // The filter: the chart of the newest item, whose items the general queue (oldest first) would serve last.
    const newest = db().prepare('SELECT id, chart_id FROM hqa_items ORDER BY id DESC LIMIT 1').get() as { id: number; chart_id: number };
    const expected = (db().prepare('SELECT id FROM hqa_items WHERE chart_id = ? ORDER BY id').all(newest.chart_id) as { id: number }[]).map((r) => r.id);
    const oldest = (db().prepare('SELECT MIN(id) AS id FROM hqa_items').get() as { id: number }).id;
    expect(expected).not.toContain(oldest);
    const annId = (db().prepare("SELECT id FROM users WHERE username = 'ann'").get() as { id: number }).id;

    const curator = await browsers.signIn(server.url, { username: 'cora', password: 'curator-pass-1' });
    const items = await new ItemsListPage(curator, server.url).goto(`chart=${newest.chart_id}`);
    const count = `${expected.length} ${expected.length === 1 ? 'item' : 'items'}`;
    const ask = items.bulkBar.getByRole('button', { name: `Assign all ${count} matching…`, exact: true });
    await ask.focus();
    await curator.keyboard.press('Enter');
    const dialog = items.bulkBar.getByRole('alertdialog', { name: 'Confirm assign' });
    expect(await dialog.textContent()).toContain(`Assign ${count}?`);
    // The picker has focus: typing a name picks the reviewer, Tab reaches the confirm button, Enter confirms.
    const picker = dialog.getByLabel('Assign to');
    await expect.poll(() => picker.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => picker.locator('option', { hasText: 'ann' }).count()).toBe(1);
    await curator.keyboard.type('ann');
    expect(await picker.inputValue()).toBe(`reviewer:${annId}`);
    await curator.keyboard.press('Tab');
    await curator.keyboard.press('Enter');
    await expect.poll(() => items.bulkBar.getByRole('status').textContent()).toBe(`${count} assigned.`);
    expect((db().prepare('SELECT item_id FROM item_assignments WHERE reviewer_id = ? ORDER BY item_id').all(annId) as { item_id: number }[]).map((r) => r.item_id)).toEqual(
      expected,
    );
    // The list says who has them.
    await expect.poll(() => curator.getByTestId('assignment-notes').textContent()).toContain(`#${newest.id} assigned to ann`);

    const reviewer = await browsers.signIn(server.url, { username: 'ann', password: 'ann-password' });
    const review = await new ReviewPage(reviewer, server.url).goto();
    const shown = await review.shownItemId();
    expect(expected).toContain(shown);
    await expect.poll(() => reviewer.getByTestId('queue-assigned').textContent()).toBe(String(expected.length));
  }, 60_000);
});
