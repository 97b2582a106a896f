import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reviewApi } from '../../shared/api/review';
import { TestClient } from '../support/http-client';
import { acceptReview, generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { AppFrame } from './pages/app-frame';
import { AuditPage } from './pages/audit-page';
import { SignedInBrowsers } from './signed-in-browsers';

const ADMIN = { username: 'ada', password: 'admin-pass-123' };
const REVIEWER = { username: 'rex', password: 'reviewer-pass-1' };

let server: TestServer;
let itemId: number;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser(ADMIN.username, 'admin', ADMIN.password);
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
  await generateItems(server, 1);
  const reviewer = new TestClient(server.url);
  await reviewer.login(REVIEWER.username, REVIEWER.password);
  const task = (await reviewer.call(reviewApi.next, { body: {} })).task;
  if (!task) throw new Error('no item to review');
  itemId = task.item.id;
  const submitted = await reviewer.send(reviewApi.submit, { params: { id: itemId }, body: acceptReview() });
  if (submitted.status !== 201) throw new Error(`review not stored: ${submitted.status}`);
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => browsers.closeAll());

describe('the audit log in the browser', () => {
  it('an admin filters by action with the keyboard and sees the review, the filter in the URL and the export', async () => {
    const page = await browsers.signIn(server.url, ADMIN);
    const frame = new AppFrame(page);
    await frame.navLink('Audit log').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const audit = new AuditPage(page);
    await audit.table.waitFor();
    // Unfiltered, the logins come first: the review is further down.
    expect(await audit.actions()).toContain('login.succeeded');

    await audit.actionFilter.focus();
    await page.keyboard.type('review.');
    await page.waitForURL((url) => url.searchParams.get('action') === 'review.submitted');
    // The URL changes first; the list follows when the filtered page arrives.
    await expect.poll(() => audit.actions()).toEqual(['review.submitted']);
    expect(await audit.rows().first().textContent()).toContain(`item ${itemId}`);
    expect(await audit.exportLink.getAttribute('href')).toBe('/api/audit/export?action=review.submitted');

    // The filter survives a reload: it is the URL's.
    await page.reload();
    await audit.rows().filter({ hasText: 'rex' }).waitFor();
    expect(await audit.actionFilter.inputValue()).toBe('review.submitted');
  });

  it('is not in a reviewer\'s navigation', async () => {
    const page = await browsers.signIn(server.url, REVIEWER);
    expect(await new AppFrame(page).navLabels()).not.toContain('Audit log');
  });
});
