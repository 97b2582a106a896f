import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reviewApi } from '../../shared/api/review';
import { putSettings } from '../../server/settings/settings-queries';
import { TestClient } from '../support/http-client';
import { acceptReview, generateItems, rejectReview } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { StatsPage } from './pages/stats-page';
import { signInSession } from './signed-in-browsers';

/**
 * Gold items (issue 16, point 5): a curator marks accepted items gold on the Item page; after a
 * reviewer's claims served them and one review disagreed with gold, Stats shows the reviewer's
 * agreement per criterion and flags them under the threshold.
 */
let server: TestServer;
let session: BrowserSession | undefined;
const accepted: number[] = [];

async function reviewerClient(name: string): Promise<TestClient> {
  await server.createUser(name, 'reviewer', `${name}-password`);
  const client = new TestClient(server.url);
  await client.login(name, `${name}-password`);
  return client;
}

/** Claims the caller's next item and submits `review` on it; the item's id. */
async function claimAndSubmit(client: TestClient, review: ReturnType<typeof acceptReview>): Promise<number> {
  const task = (await client.call(reviewApi.next, { body: {} })).task;
  if (!task) throw new Error('the queue gave no task');
  const res = await client.send(reviewApi.submit, { params: { id: task.item.id }, body: review });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return task.item.id;
}

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 6);
  await server.createUser('cora', 'curator', 'curator-pass-1');
  putSettings(server.server.ctx.db, { reviews_per_item: 1, gold_share: 0 });
  const ann = await reviewerClient('ann');
  for (let i = 0; i < 2; i++) accepted.push(await claimAndSubmit(ann, acceptReview()));
}, 120_000);
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('gold items in the browser', () => {
  it('a curator marks accepted items gold on the Item page, and Stats shows a reviewer’s agreement and the flag', async () => {
    session = await openBrowser();
    const { page } = session;
    await signInSession(session, server.url, { username: 'cora', password: 'curator-pass-1' }, null);
    const gold = () => (server.server.ctx.db.prepare('SELECT item_id FROM gold_items ORDER BY item_id').all() as { item_id: number }[]).map((r) => r.item_id);

    for (const id of accepted) {
      await page.goto(`${server.url}/items/${id}`);
      const mark = page.getByRole('button', { name: 'Mark as gold' });
      await mark.click();
      await page.getByRole('button', { name: 'Unmark gold' }).waitFor();
    }
    expect(gold()).toEqual([...accepted].sort((a, b) => a - b));
    // A pending item offers no mark.
    const pending = (server.server.ctx.db.prepare("SELECT id FROM hqa_items WHERE status = 'pending' ORDER BY id LIMIT 1").get() as { id: number }).id;
    await page.goto(`${server.url}/items/${pending}`);
    // The item body (its Verifier section) renders in the same pass as the toggle would.
    await page.getByRole('heading', { level: 2, name: 'Verifier' }).waitFor();
    expect(await page.getByTestId('gold-toggle').count()).toBe(0);

    // ben's queue is all gold: he accepts one and rejects the other on layout, which gold passed.
    putSettings(server.server.ctx.db, { gold_share: 1 });
    const ben = await reviewerClient('ben');
    const served = [await claimAndSubmit(ben, acceptReview()), await claimAndSubmit(ben, rejectReview())];
    expect(served.sort((a, b) => a - b)).toEqual(gold());

    await new StatsPage(page, server.url).goto();
    const row = page.getByTestId('calibration-ben');
    await row.waitFor();
    expect(await row.getAttribute('data-flagged')).toBe('true');
    expect(await row.locator('[data-criterion="rationality"]').textContent()).toBe('100.0 %');
    expect(await row.locator('[data-criterion="layout"]').textContent()).toBe('50.0 %');
    expect(await page.getByTestId('calibration-flagged').textContent()).toContain('ben');
    // ann reviewed no gold item: she is not in the table.
    expect(await page.getByTestId('calibration-ann').count()).toBe(0);
  });
});
