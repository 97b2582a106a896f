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
  await server.createUser('ben', 'reviewer', 'ben-password');
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

    const curator = await browsers.signIn(server.url, { username: 'cora', password: 'curator-pass-1' }, null);
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

    const reviewer = await browsers.signIn(server.url, { username: 'ann', password: 'ann-password' }, null);
    const review = await new ReviewPage(reviewer, server.url).goto();
    const shown = await review.shownItemId();
    expect(expected).toContain(shown);
    await expect.poll(() => reviewer.getByTestId('queue-assigned').textContent()).toBe(String(expected.length));
  }, 60_000);

  it('a curator makes a named queue with the keyboard, adds a reviewer and assigns a checked item to it; its member claims it first', async () => {
    const target = (db().prepare("SELECT MAX(id) AS id FROM hqa_items WHERE status = 'pending' AND id NOT IN (SELECT item_id FROM item_assignments)").get() as { id: number }).id;
    const curator = await browsers.signIn(server.url, { username: 'cora', password: 'curator-pass-1' }, null);
    const items = await new ItemsListPage(curator, server.url).goto();
    await curator.getByRole('button', { name: 'Review queues…' }).press('Enter');
    // Each key goes to the control it is pressed on (the list below keeps its own j/k focus).
    const name = curator.getByRole('textbox', { name: 'New queue' });
    await name.pressSequentially('night shift');
    await name.press('Enter');
    const queue = curator.locator('[data-testid="review-queue"][data-queue-name="night shift"]');
    await queue.waitFor();
    const add = queue.getByLabel('Reviewer to add to night shift');
    await add.pressSequentially('ben');
    expect(await add.inputValue()).not.toBe('');
    await add.press('Tab');
    await queue.getByRole('button', { name: 'Add', exact: true }).press('Enter');
    await queue.getByRole('button', { name: 'Remove ben from night shift' }).waitFor();

    // The newest items come first: the row of `target` is checked with its checkbox from the keyboard.
    await curator.getByLabel(`Select item #${target}`, { exact: true }).press('Space');
    await items.bulkBar.getByRole('button', { name: 'Assign…', exact: true }).press('Enter');
    const dialog = items.bulkBar.getByRole('alertdialog', { name: 'Confirm assign' });
    expect(await dialog.textContent()).toContain('Assign 1 item?');
    await expect.poll(() => dialog.getByLabel('Assign to').locator('option', { hasText: 'night shift' }).count()).toBe(1);
    const picker = dialog.getByLabel('Assign to');
    await picker.pressSequentially('queue');
    expect(await picker.inputValue()).toMatch(/^queue:/);
    await picker.press('Tab');
    await dialog.getByRole('button', { name: /^Confirm assign/ }).press('Enter');
    await expect.poll(() => items.bulkBar.getByRole('status').textContent()).toBe('1 item assigned.');
    expect(db().prepare('SELECT q.name FROM item_assignments a JOIN review_queues q ON q.id = a.queue_id WHERE a.item_id = ?').get(target)).toEqual({ name: 'night shift' });

    const reviewer = await browsers.signIn(server.url, { username: 'ben', password: 'ben-password' }, null);
    const review = await new ReviewPage(reviewer, server.url).goto();
    expect(await review.shownItemId()).toBe(target);
  }, 60_000);
});
