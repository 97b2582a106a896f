import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ReviewPage } from './pages/review-page';
import { reviewServer } from './review-server';

/**
 * Ctrl+Enter submits the suggested decision; with feedback written and no criterion failed it
 * would accept what reads like a rejection, so it asks first (issue 16, point 10). `a` asks the
 * same whenever the accept carries a failed criterion, feedback or a correction, and is refused
 * with its reason when it cannot be an accept at all (issue 33, point 4). Keyboard only.
 */
const fixture = reviewServer(12);

type ReviewRow = { item_id: number; decision: string; rationality: number; correctness: number; layout: number; feedback: string };

async function reviewer(): Promise<{ page: Page; review: ReviewPage; userId: number }> {
  const { page, userId } = await fixture.signIn('confirmer');
  return { page, review: await new ReviewPage(page, fixture.server.url).goto(), userId };
}

const reviewsBy = (userId: number) =>
  fixture.server.server.ctx.db.prepare('SELECT item_id, decision, rationality, correctness, layout, feedback FROM reviews WHERE reviewer_id = ? ORDER BY id').all(userId) as ReviewRow[];

describe('Ctrl+Enter on the review page', () => {
  it('asks before accepting when feedback is written but no criterion failed; Esc goes back, Enter accepts', async () => {
    const { page, review, userId } = await reviewer();
    const confirm = page.getByTestId('accept-confirm');
    const first = await review.shownItemId();

    await review.press('f');
    await review.type('The wording of the question is odd.');
    await review.press('Control+Enter');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(`Accept item #${first}? You wrote feedback.`);
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

describe('a on the review page', () => {
  it('asks before accepting with a failed criterion, feedback or a correction; refuses, with the reason, an accept that cannot be one', async () => {
    const { page, review, userId } = await reviewer();
    const confirm = page.getByTestId('accept-confirm');
    const first = await review.shownItemId();

    // Rationality failed: no accept is possible. One message says why; the focus stays put and
    // the next key is a shortcut again.
    await review.press('1', 'a');
    await review.errors.waitFor();
    expect(await review.errors.textContent()).toBe('Not accepted: accept needs rationality and layout consistency to pass; reject instead (press 1, 2 or 3).');
    expect(await confirm.count()).toBe(0);
    expect(await review.focused()).toBe('BODY');
    expect(reviewsBy(userId)).toEqual([]);

    // Correctness failed without a corrected answer: refused, the key that fixes it named.
    await review.press('1', '2', 'a');
    expect(await review.errors.textContent()).toBe('Not accepted: accepting with a failed correctness needs the corrected answer (press c).');
    expect(await review.focused()).toBe('BODY');

    // With the corrected answer and a line of feedback: asked, listing both and the failed criterion; n goes back.
    await review.press('c');
    await review.type('17');
    await review.press('Escape', 'f');
    await review.type('The sum is off by one.');
    await review.press('Escape', 'a');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(`Accept item #${first}? You failed answer correctness, you corrected the answer to “17” and you wrote feedback.`);
    await review.press('n');
    await confirm.waitFor({ state: 'detached' });
    expect(reviewsBy(userId)).toEqual([]);
    await review.press('a');
    await confirm.waitFor();
    await review.press('y');
    // The run made few items: the queue may be empty after this one.
    await page.locator(`[data-testid="review-workspace"][data-item-id="${first}"]`).waitFor({ state: 'detached' });
    await expect.poll(() => reviewsBy(userId)).toEqual([{ item_id: first, decision: 'accept', rationality: 1, correctness: 0, layout: 1, feedback: 'The sum is off by one.' }]);
  });
});
