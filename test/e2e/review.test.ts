import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reviewApi } from '../../shared/api/review';
import { RunConfigSchema } from '../../shared/api/runs';
import type { Role } from '../../shared/domain/roles';
import type { AnswerType } from '../../shared/table/answers';
import { TestClient } from '../support/http-client';
import { rewriteItemText } from '../support/factories';
import { correctionFor } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { AdjudicationPage } from './pages/adjudication-page';
import { ItemsListPage } from './pages/items-list-page';
import { ReviewPage } from './pages/review-page';
import { signInSession } from './signed-in-browsers';
import { settingsApi } from '../../shared/api/settings';

/** Enough for every test's reviewer to hold an item and one prefetched behind it. */
const ITEMS = 60;
const XSS = '<img src=x onerror=alert(1)>';
const RATIONALE_XSS = '<script>alert(2)</script><b onmouseover=alert(3)>bold?</b>';
/** Set to a directory (e.g. /tmp) to keep screenshots of the review page at 1366×768. */
const SCREENSHOT_DIR = process.env.HQA_E2E_SCREENSHOT_DIR;

type ReviewRow = {
  item_id: number;
  decision: string;
  rationality: number;
  correctness: number;
  layout: number;
  feedback: string;
  corrected_answer: string | null;
  time_spent_ms: number;
  retracted_at: string | null;
  retract_reason: string | null;
};
type ItemRow = { id: number; status: string; final_answer: string | null; answer: string; answer_type: AnswerType };

let server: TestServer;
const sessions: BrowserSession[] = [];
let userCount = 0;

beforeAll(async () => {
  server = await startTestServer();
  const { executor } = server.server;
  await executor.start(executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: ITEMS }), null).id);
});

afterAll(async () => {
  await server?.close();
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

type NewUser = { username: string; password: string; userId: number };

/** A fresh user: each test its own, so their leases and reviews never meet. */
async function newUser(role: Role): Promise<NewUser> {
  userCount += 1;
  const username = `${role}${userCount}`;
  const password = `${role}-pass-${userCount}`;
  await server.createUser(username, role, password);
  const { id: userId } = server.server.ctx.db.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number };
  return { username, password, userId };
}

/** The user signed in to their own Chromium, on a 1366×768 laptop screen, on no page yet: every caller opens one next. */
async function signIn(user: NewUser): Promise<Page> {
  const session = await openBrowser();
  sessions.push(session);
  await session.page.setViewportSize({ width: 1366, height: 768 });
  await signInSession(session, server.url, user, null);
  return session.page;
}

/** The same user over HTTP (the API the browser uses). */
async function apiAs(user: NewUser): Promise<TestClient> {
  const client = new TestClient(server.url);
  await client.login(user.username, user.password);
  return client;
}

async function reviewerOnReviewPage(): Promise<{ page: Page; review: ReviewPage; userId: number }> {
  const user = await newUser('reviewer');
  const page = await signIn(user);
  const review = await new ReviewPage(page, server.url).goto();
  return { page, review, userId: user.userId };
}

/** Claims the next item over the API and returns its id. */
async function claim(client: TestClient, filters: { run_id?: number } = {}): Promise<number> {
  const { task } = await client.call(reviewApi.next, { body: filters });
  if (!task) throw new Error('the queue is empty');
  return task.item.id;
}

const ALL_PASS = { rationality: { pass: true }, correctness: { pass: true }, layout: { pass: true } };

function reviewsBy(userId: number): ReviewRow[] {
  return server.server.ctx.db
    .prepare(
      `SELECT item_id, decision, rationality, correctness, layout, feedback, corrected_answer, time_spent_ms, retracted_at, retract_reason
       FROM reviews WHERE reviewer_id = ? ORDER BY id`,
    )
    .all(userId) as ReviewRow[];
}

function item(id: number): ItemRow {
  return server.server.ctx.db.prepare('SELECT id, status, final_answer, answer, answer_type FROM hqa_items WHERE id = ?').get(id) as ItemRow;
}

/** True when the reviewer holds a claimed item behind the one on screen (the prefetch landed). */
function prefetched(userId: number): boolean {
  const row = server.server.ctx.db.prepare('SELECT COUNT(*) AS n FROM leases WHERE reviewer_id = ?').get(userId) as { n: number };
  return row.n === 2;
}

describe('reviewing in the browser', () => {
  it('a reviewer reviews three items with the keyboard only: accept, reject with feedback, accept with a corrected answer', async () => {
    const { page, review, userId } = await reviewerOnReviewPage();

    const first = await review.shownItemId();
    expect(await review.counterfactualState()).toBe('drawn');
    expect(await review.counterfactualChart.locator('svg').count()).toBe(1);
    expect(await review.criterionPasses('Rationality')).toBe(true);
    if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/review-page.png` });

    // The next item is already claimed; hold the first submit back on the wire to show that
    // the next item appears without waiting for it.
    await expect.poll(() => prefetched(userId)).toBe(true);
    let releaseSubmit: () => void = () => undefined;
    const submitHeld = new Promise<void>((resolve) => (releaseSubmit = resolve));
    await page.route('**/api/review/items/*', async (route) => {
      await submitHeld;
      await route.continue();
    });

    // 1. Accept.
    await review.press('a');
    const second = await review.waitForItemOtherThan(first);
    expect(reviewsBy(userId)).toHaveLength(0);
    releaseSubmit();
    await expect.poll(() => reviewsBy(userId).length).toBe(1);
    await page.unroute('**/api/review/items/*');
    await review.undoToast.waitFor();
    if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/review-page-undo.png` });

    // 2. Reject with feedback: fail rationality, write feedback, leave the field, reject.
    await expect.poll(() => prefetched(userId)).toBe(true);
    await review.press('1');
    expect(await review.criterionPasses('Rationality')).toBe(false);
    await review.press('f');
    await review.type('The assumption contradicts the chart: the slice cannot grow past 100%.');
    // Letters typed in the field stay there: "r" did not reject, "a" did not accept.
    expect(await review.shownItemId()).toBe(second);
    await review.press('Escape', 'r');
    const third = await review.waitForItemOtherThan(second);

    // 3. Accept with a corrected answer: correctness fails, the answer is corrected (one of the
    // item's answer type); an accept carrying a failed criterion and a correction asks first, Enter confirms.
    const thirdCorrection = correctionFor(item(third));
    await review.press('2', 'c');
    await review.type(thirdCorrection);
    await review.press('Escape', 'a');
    await review.acceptConfirm.waitFor();
    expect(await review.acceptConfirm.textContent()).toContain(`You failed answer correctness and you corrected the answer to “${thirdCorrection}”`);
    expect(await review.shownItemId()).toBe(third);
    await review.press('Enter');
    await review.waitForItemOtherThan(third);

    await expect.poll(() => reviewsBy(userId).length).toBe(3);
    const [accepted, rejected, corrected] = reviewsBy(userId);
    expect(accepted).toMatchObject({ item_id: first, decision: 'accept', rationality: 1, correctness: 1, layout: 1, corrected_answer: null });
    expect(rejected).toMatchObject({
      item_id: second,
      decision: 'reject',
      rationality: 0,
      correctness: 1,
      layout: 1,
      feedback: 'The assumption contradicts the chart: the slice cannot grow past 100%.',
    });
    expect(corrected).toMatchObject({ item_id: third, decision: 'accept', correctness: 0, corrected_answer: thirdCorrection });
    for (const row of [accepted, rejected, corrected]) {
      expect(row?.retracted_at).toBeNull();
      expect(row?.time_spent_ms).toBeGreaterThan(0);
    }
    // One review per item decides it (k = 1); the correction became the final answer.
    expect(item(first)).toMatchObject({ status: 'accepted', final_answer: null });
    expect(item(second)).toMatchObject({ status: 'rejected' });
    expect(item(third)).toMatchObject({ status: 'accepted', final_answer: thirdCorrection });
    // The queue figures a reviewer sees are what is left for them: per-status counts are the
    // staff's (blind review: they told how an item judged with others settled, and a gold claim).
    await expect.poll(() => review.queueCounts.textContent()).toMatch(/^\d+ for you/);
    expect(await review.queueCounts.textContent()).not.toMatch(/accepted|rejected|pending|in review/);
  });

  it('refuses a rejection without feedback, saying why in one message and keeping the keys; lists every key; skips', async () => {
    const { review, userId } = await reviewerOnReviewPage();
    const shown = await review.shownItemId();
    await review.press('r');
    await review.errors.waitFor();
    // One message, naming the keys that fix it; nothing else on the page says it again.
    expect(await review.errors.textContent()).toBe('Not rejected: a rejection needs a failed criterion (press 1, 2 or 3) and written feedback (press f).');
    expect(await review.page.getByRole('alert').count()).toBe(1);
    expect(await review.shownItemId()).toBe(shown);
    expect(reviewsBy(userId)).toHaveLength(0);
    // The focus stayed where it was: the next keys are shortcuts, not text typed into Feedback
    // ("2r2f…" used to land in the field).
    expect(await review.focused()).toBe('BODY');
    await review.press('2', 'r');
    expect(await review.feedback.inputValue()).toBe('');
    expect(await review.criterionPasses('Answer correctness')).toBe(false);
    expect(await review.errors.textContent()).toBe('Not rejected: a rejection needs written feedback (press f).');
    await review.press('2');
    expect(await review.criterionPasses('Answer correctness')).toBe(true);
    await review.errors.waitFor({ state: 'detached' });
    expect(await review.feedback.inputValue()).toBe('');
    expect(reviewsBy(userId)).toHaveLength(0);
    await review.press('?');
    await review.keysOverlay.waitFor();
    for (const key of ['1', '2', '3', 'a', 'r', 's', 'f', 'c', 'u', 'l', 'z', 't', 'g']) {
      expect(await review.keysOverlay.locator('kbd', { hasText: new RegExp(`^${key}$`) }).count()).toBe(1);
    }
    await review.press('Escape');
    await review.keysOverlay.waitFor({ state: 'detached' });

    // Skip gives the item back and shows the next at once.
    await review.press('s');
    await review.waitForItemOtherThan(shown);
    const leases = () =>
      (server.server.ctx.db.prepare('SELECT COUNT(*) AS n FROM leases WHERE item_id = ? AND reviewer_id = ?').get(shown, userId) as { n: number }).n;
    await expect.poll(leases).toBe(0);
  });

  it('undoes the last decision within its window: the item comes back with what was submitted', async () => {
    const { review, userId } = await reviewerOnReviewPage();
    const first = await review.shownItemId();
    // A correction is checked like the item's answer: one of its type.
    const corrected = correctionFor(item(first), 7);
    await review.press('c');
    await review.type(corrected);
    await review.press('Escape', 'a');
    await review.acceptConfirm.waitFor();
    await review.press('y');
    await review.waitForItemOtherThan(first);
    await review.undoToast.waitFor();
    await expect.poll(() => reviewsBy(userId).length).toBe(1);
    expect(item(first).final_answer).toBe(corrected);

    await review.press('u');
    await review.waitForItem(first);
    expect(await review.correctedAnswer.inputValue()).toBe(corrected);
    await expect.poll(() => reviewsBy(userId)[0]?.retract_reason).toBe('undo');
    expect(item(first)).toMatchObject({ status: 'in_review', final_answer: null });

    // Decided again, differently: the standing review is the new one.
    await review.press('3', 'f');
    await review.type('Layout broken after the edit.');
    await review.press('Escape', 'r');
    await review.waitForItemOtherThan(first);
    await expect.poll(() => reviewsBy(userId).length).toBe(2);
    expect(reviewsBy(userId)[1]).toMatchObject({ item_id: first, decision: 'reject', layout: 0, retracted_at: null });
    await expect.poll(() => item(first).status).toBe('rejected');
  });

  it('keeps a half-written review through a reload and clears it once submitted', async () => {
    const { page, review, userId } = await reviewerOnReviewPage();
    const shown = await review.shownItemId();
    const corrected = correctionFor(item(shown), 12.5);
    await review.press('3', 'f');
    await review.type('Half-written: the bars');
    await review.press('Escape', 'c');
    await review.type(corrected);
    await review.press('Escape');

    await page.reload();
    await review.waitForItem(shown);
    await review.draftRestored.waitFor();
    expect(await review.criterionPasses('Layout consistency')).toBe(false);
    expect(await review.feedback.inputValue()).toBe('Half-written: the bars');
    expect(await review.correctedAnswer.inputValue()).toBe(corrected);

    await review.press('f', 'End');
    await review.type(' no longer fit the axis.');
    await review.press('Escape', 'r');
    await review.waitForItemOtherThan(shown);
    await expect.poll(() => reviewsBy(userId).length).toBe(1);
    expect(reviewsBy(userId)[0]).toMatchObject({
      item_id: shown,
      decision: 'reject',
      layout: 0,
      feedback: 'Half-written: the bars no longer fit the axis.',
      corrected_answer: corrected,
    });
    // Cleared when the browser reads the server's answer, which may come after the row is visible here.
    const draftsOfShown = async () => (await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('hqa.review-draft')))).filter((key) => key.endsWith(`.${shown}`));
    await expect.poll(draftsOfShown).toEqual([]);
  });

  it('tells the reviewer when their lease ends (a curator re-queued the item); a and r say why they do nothing, l claims it again', async () => {
    const { review, userId } = await reviewerOnReviewPage();
    const shown = await review.shownItemId();
    await review.press('f');
    await review.type('Started before the re-queue.');
    await review.press('Escape');

    const curator = await apiAs(await newUser('curator'));
    expect((await curator.send(reviewApi.requeue, { body: { item_ids: [shown] } })).status).toBe(200);

    await review.leaseExpired.waitFor();
    expect(await review.leaseExpired.textContent()).toContain('Your lease on this item ran out');
    expect(await review.leaseExpired.getByRole('button', { name: 'Claim again l' }).count()).toBe(1);
    // Accepting now cannot be stored: the page says so, and which key gets the item back.
    await review.press('a');
    await review.notice.waitFor();
    expect(await review.notice.textContent()).toContain(`Your lease on item #${shown} ran out, so a review of it cannot be stored. Press l to claim it again`);
    await review.press('r');
    expect(await review.notice.textContent()).toContain('Press l to claim it again');
    expect(reviewsBy(userId)).toHaveLength(0);
    await review.press('l');
    await review.leaseExpired.waitFor({ state: 'detached' });
    await review.notice.waitFor({ state: 'detached' });
    expect(await review.shownItemId()).toBe(shown);
    expect(await review.feedback.inputValue()).toBe('Started before the re-queue.');
    const lease = server.server.ctx.db.prepare('SELECT COUNT(*) AS n FROM leases WHERE item_id = ? AND reviewer_id = ?').get(shown, userId) as { n: number };
    expect(lease.n).toBe(1);
  });

  it('shows model text as literal text: an item whose question is an <img onerror> runs nothing', async () => {
    const { page, review } = await reviewerOnReviewPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const shown = await review.shownItemId();
    // The claimed item's text becomes hostile; the reload brings the same item back (own lease first).
    rewriteItemText(server.server.ctx.db, shown, { question: XSS, rationale: RATIONALE_XSS, chartTitle: XSS });
    await page.reload();
    await review.waitForItem(shown);

    expect(await review.question.textContent()).toBe(XSS);
    expect(await page.getByTestId('review-rationale').textContent()).toBe(RATIONALE_XSS);
    expect(await review.counterfactualState()).toBe('drawn');
    expect(await review.counterfactualChart.locator('svg text', { hasText: XSS }).count()).toBeGreaterThan(0);
    await page.getByTestId('review-rationale').hover();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.locator('script', { hasText: 'alert' }).count()).toBe(0);
    expect(await page.locator('b[onmouseover]').count()).toBe(0);

    // Decided with the keyboard like any other item: the text did not break the page.
    await review.press('a');
    await review.waitForItemOtherThan(shown);
    expect(dialogs).toEqual([]);
  });

  it("a reviewer's prefetched next item is still pending on the curator's Items list, not a second item in review", async () => {
    const { review, userId } = await reviewerOnReviewPage();
    const shown = await review.shownItemId();
    await expect.poll(() => prefetched(userId)).toBe(true);
    const ahead = (server.server.ctx.db.prepare('SELECT item_id FROM leases WHERE reviewer_id = ? AND item_id != ?').get(userId, shown) as { item_id: number }).item_id;

    const items = await new ItemsListPage(await signIn(await newUser('curator')), server.url).goto('status=in_review');
    await items.row(shown).waitFor();
    expect(await items.row(ahead).count()).toBe(0);
    await items.goto('status=pending');
    await items.row(ahead).waitFor();
    expect(await items.status(ahead)).toBe('pending');

    // Decided, the item on screen leaves review and the one fetched ahead is the one in review.
    await review.press('a');
    await review.waitForItem(ahead);
    await items.goto('status=in_review');
    await items.row(ahead).waitFor();
    expect(await items.status(ahead)).toBe('in review');
  });

  it('items claimed elsewhere leave a pending list at once; a curator re-queues a decided item from the list', async () => {
    const curatorUser = await newUser('curator');
    const items = await new ItemsListPage(await signIn(curatorUser), server.url).goto('status=pending');
    const reviewer = await apiAs(await newUser('reviewer'));
    const claimed = await claim(reviewer);
    await items.row(claimed).waitFor({ state: 'detached' });

    expect((await reviewer.send(reviewApi.submit, { params: { id: claimed }, body: { decision: 'accept', criteria: ALL_PASS, time_spent_ms: 900 } })).status).toBe(201);
    await items.goto();
    await expect.poll(() => items.status(claimed)).toBe('accepted');
    await items.select(claimed);
    await items.requeueSelected();
    await expect.poll(() => items.status(claimed)).toBe('pending');
    expect(item(claimed).status).toBe('pending');
    const retracted = server.server.ctx.db.prepare('SELECT retract_reason FROM reviews WHERE item_id = ?').all(claimed) as { retract_reason: string }[];
    expect(retracted).toEqual([{ retract_reason: 'requeue' }]);
  });

  it('two reviewers disagree (k = 2, majority): a curator sees both reviews side by side and decides with a final answer', async () => {
    const admin = await apiAs(await newUser('admin'));
    expect((await admin.send(settingsApi.update, { body: { reviews_per_item: 2, consensus_rule: 'majority' } })).status).toBe(200);
    try {
      const [ann, ben] = [await newUser('reviewer'), await newUser('reviewer')];
      const annApi = await apiAs(ann);
      const benApi = await apiAs(ben);
      // A run of its own, so that no other test's lease holds a slot of the disputed item.
      const { executor } = server.server;
      // One question per run until a run makes its item (the rules decline a question no proposal can change).
      let runId = 0;
      for (let attempt = 0; attempt < 10; attempt++) {
        runId = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: 1 }), null).id;
        await executor.start(runId);
        if (server.server.ctx.db.prepare('SELECT 1 FROM hqa_items WHERE run_id = ?').get(runId)) break;
      }
      const disputed = await claim(annApi, { run_id: runId });
      expect(await claim(benApi, { run_id: runId })).toBe(disputed);
      await annApi.send(reviewApi.submit, { params: { id: disputed }, body: {
        decision: 'accept',
        criteria: { ...ALL_PASS, correctness: { pass: false, note: 'rounded wrong' } },
        corrected_answer: '5',
        time_spent_ms: 2000,
      } });
      await benApi.send(reviewApi.submit, { params: { id: disputed }, body: {
        decision: 'reject',
        criteria: { ...ALL_PASS, layout: { pass: false, note: 'slices exceed 100' } },
        feedback: 'The edited pie no longer sums to 100.',
        time_spent_ms: 3000,
      } });
      expect(item(disputed).status).toBe('needs_adjudication');

      const curator = await newUser('curator');
      const page = await signIn(curator);
      const adjudication = await new AdjudicationPage(page, server.url).goto();
      await adjudication.case(disputed).waitFor();
      expect(await adjudication.reviewers(disputed)).toEqual([ann.username, ben.username]);
      expect(await adjudication.case(disputed).textContent()).toContain('The edited pie no longer sums to 100.');
      await adjudication.decide(disputed, 'Accept', { finalAnswer: '5', note: 'Ann is right; the layout holds.' });
      await adjudication.case(disputed).waitFor({ state: 'detached' });
      expect(item(disputed)).toMatchObject({ status: 'accepted', final_answer: '5' });

      // The item page keeps the whole story for curators.
      await page.goto(`${server.url}/items/${disputed}`);
      const history = page.getByTestId('review-history');
      await history.waitFor();
      expect(await history.locator('.review-record-head strong').allTextContents()).toEqual([ann.username, ben.username]);
      expect(await page.getByTestId('answer-history').textContent()).toContain('adjudication');
    } finally {
      await admin.send(settingsApi.update, { body: { reviews_per_item: 1 } });
    }
  });
});
