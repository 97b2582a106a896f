import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { putSettings } from '../../server/settings/settings-queries';
import { buildAssignment, buildQueue, moveChartToSplit } from '../support/factories';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { AdminPage } from './pages/admin-page';
import { ItemsListPage } from './pages/items-list-page';
import { SignedInBrowsers } from './signed-in-browsers';

/**
 * Issue 16 leftovers of assignment in Chromium, from the keyboard: a curator renames a named
 * queue and deletes it after a dialog stating how many items lose their assignment, while an
 * open Item page of one of its items follows over the socket; the Item page assigns and
 * unassigns its item (and shows a reviewer nothing of it); the Items page's split filter is a
 * select kept in the URL; the Admin page's disable confirmation states how many items return
 * to the general queue.
 */
let server: TestServer;
const browsers = new SignedInBrowsers();
const db = () => server.server.ctx.db;
const CURATOR = { username: 'cora', password: 'curator-pass-1' };
const userId = (name: string) => (db().prepare('SELECT id FROM users WHERE username = ?').get(name) as { id: number }).id;
const itemIds = () => (db().prepare('SELECT id FROM hqa_items ORDER BY id').all() as { id: number }[]).map((r) => r.id);

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 6);
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  await server.createUser('ada', 'admin', 'admin-pass-12');
  await server.createUser('ann', 'reviewer', 'ann-password');
  putSettings(db(), { reviews_per_item: 1, gold_share: 0 });
}, 120_000);
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await browsers.closeAll();
});

describe('queues, assignment on the Item page, splits and disabling in the browser', () => {
  it('renames and deletes a queue with the keyboard; an open Item page follows', async () => {
    const queueId = buildQueue(db(), { name: 'night shift', createdBy: userId('cora') });
    const queued = itemIds().slice(0, 2);
    for (const item of queued) buildAssignment(db(), { itemId: item, queueId, assignedBy: userId('cora') });

    // A second curator tab on the Item page of one of the queue's items.
    const watcher = await browsers.signIn(server.url, CURATOR, `/items/${queued[0]}`);
    const watched = watcher.getByTestId('item-assignment-text');
    await expect.poll(() => watched.textContent()).toContain('Assigned to queue night shift by cora');

    const curator = await browsers.signIn(server.url, CURATOR, null);
    await new ItemsListPage(curator, server.url).goto();
    await curator.getByRole('button', { name: 'Review queues…' }).press('Enter');
    const row = curator.locator('[data-testid="review-queue"][data-queue-name="night shift"]');
    await row.getByRole('button', { name: 'Rename night shift' }).press('Enter');
    const input = curator.getByRole('textbox', { name: 'New name of night shift' });
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    await input.press('ControlOrMeta+a');
    await input.pressSequentially('late shift');
    await input.press('Enter');
    const renamed = curator.locator('[data-testid="review-queue"][data-queue-name="late shift"]');
    await renamed.waitFor();
    // Focus is back on the queue's Rename button, under its new name.
    await expect.poll(() => renamed.getByRole('button', { name: 'Rename late shift' }).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(db().prepare('SELECT name FROM review_queues WHERE id = ?').get(queueId)).toEqual({ name: 'late shift' });
    await expect.poll(() => watched.textContent()).toContain('Assigned to queue late shift by cora');

    await renamed.getByRole('button', { name: 'Delete late shift…' }).press('Enter');
    const dialog = curator.getByRole('alertdialog', { name: 'Confirm delete late shift' });
    expect(await dialog.textContent()).toContain('2 items lose their assignment and go back to the general queue');
    // Escape goes back without deleting; asked again, Enter on the focused button confirms.
    const confirm = dialog.getByRole('button', { name: 'Confirm delete' });
    await expect.poll(() => confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    await confirm.press('Escape');
    const deleteButton = renamed.getByRole('button', { name: 'Delete late shift…' });
    await expect.poll(() => deleteButton.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(db().prepare('SELECT COUNT(*) AS n FROM review_queues').get()).toEqual({ n: 1 });
    await curator.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Confirm delete' }).press('Enter');
    await expect.poll(() => curator.getByRole('region', { name: 'Review queues' }).getByRole('status').textContent()).toBe('Queue late shift deleted; 2 items unassigned.');
    expect(db().prepare('SELECT COUNT(*) AS n FROM review_queues').get()).toEqual({ n: 0 });
    expect(db().prepare('SELECT COUNT(*) AS n FROM item_assignments').get()).toEqual({ n: 0 });
    expect(db().prepare('SELECT COUNT(*) AS n FROM hqa_items').get()).toEqual({ n: 6 });
    await expect.poll(() => watched.textContent()).toContain('Not assigned');
  }, 60_000);

  it('assigns and unassigns an item from its Item page with the keyboard; a reviewer sees no assignment', async () => {
    const item = itemIds()[2]!;
    const curator = await browsers.signIn(server.url, CURATOR, `/items/${item}`);
    const panel = curator.getByTestId('item-assignment');
    await expect.poll(() => panel.getByTestId('item-assignment-text').textContent()).toContain('Not assigned');
    const picker = panel.getByLabel('Assign this item to');
    await expect.poll(() => picker.locator('option', { hasText: 'ann' }).count()).toBe(1);
    await picker.focus();
    await picker.pressSequentially('ann');
    expect(await picker.inputValue()).toBe(`reviewer:${userId('ann')}`);
    await picker.press('Tab');
    await panel.getByRole('button', { name: 'Assign', exact: true }).press('Enter');
    await expect.poll(() => panel.getByTestId('item-assignment-text').textContent()).toMatch(/^Assigned to reviewer ann by cora, /);
    expect(db().prepare('SELECT reviewer_id, assigned_by FROM item_assignments WHERE item_id = ?').get(item)).toEqual({ reviewer_id: userId('ann'), assigned_by: userId('cora') });

    // Blind review: the assignee's own Item page shows nothing of it.
    const reviewer = await browsers.signIn(server.url, { username: 'ann', password: 'ann-password' }, `/items/${item}`);
    await reviewer.getByTestId('item-question').waitFor();
    expect(await reviewer.getByTestId('item-assignment').count()).toBe(0);
    expect(await reviewer.getByText('Assigned to').count()).toBe(0);

    await panel.getByRole('button', { name: 'Unassign' }).press('Enter');
    await expect.poll(() => panel.getByTestId('item-assignment-text').textContent()).toContain('Not assigned');
    expect(db().prepare('SELECT COUNT(*) AS n FROM item_assignments WHERE item_id = ?').get(item)).toEqual({ n: 0 });
  }, 60_000);

  it('filters the Items page by a split chosen from a select, kept in the URL', async () => {
    // A second split: the newest item's chart moves into it.
    const newest = db().prepare('SELECT id, chart_id FROM hqa_items ORDER BY id DESC LIMIT 1').get() as { id: number; chart_id: number };
    moveChartToSplit(db(), newest.chart_id, 'second');
    const inSecond = (db().prepare('SELECT id FROM hqa_items WHERE chart_id = ? ORDER BY id').all(newest.chart_id) as { id: number }[]).map((r) => r.id);
    expect(inSecond.length).toBeLessThan(6);

    const curator = await browsers.signIn(server.url, CURATOR, null);
    const items = await new ItemsListPage(curator, server.url).goto();
    const split = curator.getByRole('combobox', { name: 'Split' });
    await expect.poll(() => split.locator('option', { hasText: `second (${inSecond.length})` }).count()).toBe(1);
    await split.focus();
    await split.pressSequentially('second');
    await expect.poll(() => new URL(curator.url()).searchParams.get('split')).toBe('second');
    await expect.poll(() => items.list.locator('tr[data-item-id]').count()).toBe(inSecond.length);
    // A reload keeps it: the URL is the filter.
    await curator.reload();
    await items.list.waitFor();
    expect(await split.inputValue()).toBe('second');
    expect(await items.list.locator('tr[data-item-id]').count()).toBe(inSecond.length);
    await split.press('Home');
    await expect.poll(() => new URL(curator.url()).searchParams.get('split')).toBeNull();
    await expect.poll(() => items.list.locator('tr[data-item-id]').count()).toBe(6);
  }, 60_000);

  it('the Admin disable confirmation says how many items return to the general queue', async () => {
    const ann = userId('ann');
    const mine = itemIds().slice(0, 3);
    for (const item of mine) buildAssignment(db(), { itemId: item, reviewerId: ann, assignedBy: userId('cora') });
    const adminBrowser = await browsers.signIn(server.url, { username: 'ada', password: 'admin-pass-12' }, null);
    const admin = await new AdminPage(adminBrowser, server.url).goto();
    await admin.userActions('ann').getByRole('button', { name: 'Disable', exact: true }).press('Enter');
    const confirmGroup = admin.userRow('ann').getByRole('group', { name: 'Confirm for ann' });
    expect(await confirmGroup.textContent()).toContain('3 items assigned to them return to the general queue.');
    await confirmGroup.getByRole('button', { name: 'Confirm' }).press('Enter');
    await expect.poll(() => admin.userStatus('ann').textContent()).toMatch(/^Disabled /);
    expect(db().prepare('SELECT COUNT(*) AS n FROM item_assignments WHERE reviewer_id = ?').get(ann)).toEqual({ n: 0 });
  }, 60_000);
});
