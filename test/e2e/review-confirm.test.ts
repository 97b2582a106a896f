import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RunConfigSchema } from '../../shared/api/runs';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { LoginPage } from './pages/login-page';
import { ReviewPage } from './pages/review-page';

/**
 * Ctrl+Enter submits the suggested decision; with feedback written and no criterion failed it
 * would accept what reads like a rejection, so it asks first (issue 16, point 10). Keyboard only.
 */
let server: TestServer;
const sessions: BrowserSession[] = [];
let users = 0;

beforeAll(async () => {
  server = await startTestServer();
  const { executor } = server.server;
  await executor.start(executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: 12 }), null).id);
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

type ReviewRow = { item_id: number; decision: string; rationality: number; correctness: number; layout: number; feedback: string };

async function reviewer(): Promise<{ page: Page; review: ReviewPage; userId: number }> {
  users += 1;
  const username = `confirmer${users}`;
  await server.createUser(username, 'reviewer', `confirm-pass-${users}`);
  const { id: userId } = server.server.ctx.db.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number };
  const session = await openBrowser();
  sessions.push(session);
  await new LoginPage(session.page, server.url).goto().then((login) => login.login(username, `confirm-pass-${users}`));
  return { page: session.page, review: await new ReviewPage(session.page, server.url).goto(), userId };
}

const reviewsBy = (userId: number) =>
  server.server.ctx.db.prepare('SELECT item_id, decision, rationality, correctness, layout, feedback FROM reviews WHERE reviewer_id = ? ORDER BY id').all(userId) as ReviewRow[];

describe('Ctrl+Enter on the review page', () => {
  it('asks before accepting when feedback is written but no criterion failed; Esc goes back, Enter accepts', async () => {
    const { page, review, userId } = await reviewer();
    const confirm = page.getByTestId('accept-confirm');
    const first = await review.shownItemId();

    await review.press('f');
    await review.type('The wording of the question is odd.');
    await review.press('Control+Enter');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('You wrote feedback but failed no criterion.');
    expect(await page.getByRole('alertdialog').count()).toBe(1);
    // While it asks, the page's letters decide nothing: "r" neither rejects nor reaches the field.
    await review.press('r');
    expect(await review.feedback.inputValue()).toBe('The wording of the question is odd.');
    expect(reviewsBy(userId)).toEqual([]);

    // Esc: back to the review, nothing sent, the cursor still in the feedback.
    await review.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await review.shownItemId()).toBe(first);
    expect(await review.feedback.evaluate((field) => field === document.activeElement)).toBe(true);
    expect(reviewsBy(userId)).toEqual([]);

    // Asked again, Enter accepts, feedback kept with the acceptance.
    await review.press('Control+Enter');
    await confirm.waitFor();
    await review.press('Enter');
    const second = await review.waitForItemOtherThan(first);
    await expect.poll(() => reviewsBy(userId)).toEqual([{ item_id: first, decision: 'accept', rationality: 1, correctness: 1, layout: 1, feedback: 'The wording of the question is odd.' }]);

    // With a failed criterion the feedback goes with a rejection: no question.
    await review.press('1', 'f');
    await review.type('The assumption makes no sense for this chart.');
    await review.press('Control+Enter');
    const third = await review.waitForItemOtherThan(second);
    expect(await confirm.count()).toBe(0);
    await expect.poll(() => reviewsBy(userId).length).toBe(2);
    expect(reviewsBy(userId)[1]).toMatchObject({ item_id: second, decision: 'reject', rationality: 0, feedback: 'The assumption makes no sense for this chart.' });

    // Without feedback Ctrl+Enter accepts at once.
    await review.press('Control+Enter');
    await review.waitForItemOtherThan(third);
    expect(await confirm.count()).toBe(0);
    await expect.poll(() => reviewsBy(userId).length).toBe(3);
    expect(reviewsBy(userId)[2]).toMatchObject({ item_id: third, decision: 'accept', feedback: '' });
  });
});
