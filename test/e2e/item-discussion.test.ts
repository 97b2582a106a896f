import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getItemDetail } from '../../server/items/item-queries';
import { buildChart, buildItem, buildQa } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';
import { UI_TIMEOUT_MS } from './browser';
import { ItemDiscussionPage } from './pages/item-discussion';
import { ReviewPage } from './pages/review-page';
import { SignedInBrowsers } from './signed-in-browsers';

/**
 * Two people on one item in two Chromiums: a reviewer comments with a mention (Ctrl+Enter), the
 * mentioned curator sees the comment arrive live and is told of the mention; the curator then
 * edits the answer with a reason and reads the edit in the item's history.
 */
const REVIEWER = { username: 'rhea', password: 'reviewer-pass-1' };
const CURATOR = { username: 'cora', password: 'curator-pass-1' };

let server: TestServer;
let itemId: number;
let pendingId: number;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  const db = server.server.ctx.db;
  itemId = buildItem(db, { qaId: buildQa(db, { chartId: buildChart(db) }), status: 'accepted' });
  pendingId = buildItem(db, { qaId: buildQa(db, { chartId: buildChart(db) }) });
});
afterEach(async () => {
  await browsers.closeAll();
});
afterAll(async () => {
  await server?.close();
});

describe('an item discussion in two browsers', () => {
  it('a mention reaches the other browser live, and a curator edit shows in the history', async () => {
    const reviewer = await new ItemDiscussionPage(await browsers.signIn(server.url, REVIEWER, null), server.url).goto(itemId);
    const curator = await new ItemDiscussionPage(await browsers.signIn(server.url, CURATOR, null), server.url).goto(itemId);

    await reviewer.comment('@cora is 1 still right here?');
    // No reload: the comment and the mention arrive over the socket.
    await curator.comments.filter({ hasText: 'is 1 still right here?' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await expect.poll(() => curator.mentions.textContent(), { timeout: UI_TIMEOUT_MS }).toContain(`rhea mentioned you on item #${itemId}`);
    expect(await curator.comments.filter({ hasText: 'is 1 still right here?' }).locator('.mention').textContent()).toBe('@cora');
    // The author is not told of their own comment, and no one else is mentioned.
    expect(await reviewer.mentions.count()).toBe(0);

    await curator.editAnswer('2', 'the note in the thread');
    const row = curator.history.locator('tbody tr');
    await expect.poll(() => row.allTextContents(), { timeout: UI_TIMEOUT_MS }).toEqual([expect.stringMatching(/cora.*the note in the thread.*Answer12$/)]);
    expect(await curator.page.getByTestId('item-answer').textContent()).toBe('2');
    // Accepted, so the verifier ran again: program `1` no longer matches the answer 2.
    expect(getItemDetail(server.server.ctx.db, itemId)).toMatchObject({ status: 'accepted', answer: '2', verifier_match: false });
  });

  it('on Review, Ctrl+Enter in the thread posts the comment and decides nothing', async () => {
    const page = await browsers.signIn(server.url, REVIEWER, null);
    const review = await new ReviewPage(page, server.url).goto();
    expect(await review.shownItemId()).toBe(pendingId);
    await new ItemDiscussionPage(page, server.url).comment('Is this a control item?');
    // Review's own Ctrl+Enter accepts: typed in the thread, it did not.
    expect(await review.shownItemId()).toBe(pendingId);
    expect(getItemDetail(server.server.ctx.db, pendingId)?.status).toBe('in_review');
  });
});
