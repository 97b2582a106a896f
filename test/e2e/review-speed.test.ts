import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ReviewPage } from './pages/review-page';
import { reviewServer } from './review-server';

/**
 * Issue 33 point 3: a decided item is never shown again to its reviewer, at any speed. A
 * reviewer deciding faster than the network answers used to see an item they had just accepted
 * come back (its lease was still theirs while the submit waited behind the next claim).
 */
const ITEMS = 40;
/** Items to decide, one key every KEY_INTERVAL_MS. */
const DECISIONS = 15;
const KEY_INTERVAL_MS = 100;
/** How long the server takes to store a review, on the wire (a busy server). */
const SUBMIT_DELAY_MS = 250;

const fixture = reviewServer(ITEMS);

async function reviewer(): Promise<{ page: Page; review: ReviewPage; userId: number }> {
  const { page, userId } = await fixture.signIn('speedy');
  return { page, review: await new ReviewPage(page, fixture.server.url).goto(), userId };
}

/**
 * Records, in the page, every item id the review screen shows, in order: a MutationObserver
 * sees each workspace as React mounts it (keyed by item), however briefly it stays.
 */
async function recordShownItems(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const shown: number[] = [];
    (window as unknown as { shownItems: number[] }).shownItems = shown;
    // Each workspace element is one showing: an item shown, gone and shown again is two.
    let last: Element | null = null;
    const note = () => {
      const workspace = document.querySelector('[data-testid="review-workspace"]');
      if (!workspace || workspace === last) return;
      last = workspace;
      shown.push(Number(workspace.getAttribute('data-item-id')));
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-item-id'] });
  });
  return () => page.evaluate(() => [...(window as unknown as { shownItems: number[] }).shownItems]);
}

const reviewsBy = (userId: number) =>
  fixture.server.server.ctx.db.prepare('SELECT item_id FROM reviews WHERE reviewer_id = ? AND retracted_at IS NULL ORDER BY id').all(userId) as { item_id: number }[];

describe('deciding at speed', () => {
  it(`accepts ${DECISIONS} items at one key per ${KEY_INTERVAL_MS} ms: no item is shown twice, every decision is stored once`, async () => {
    const { page, review, userId } = await reviewer();
    await review.shownItemId();
    // A busy server: each review takes a moment to store, so keys outrun the answers, as they
    // did at 0.1–0.4 s per item while a run was going.
    await page.route('**/api/review/items/*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, SUBMIT_DELAY_MS));
      await route.continue();
    });
    const shownItems = await recordShownItems(page);
    const notices: string[] = [];
    await page.exposeFunction('noteNotice', (text: string) => notices.push(text));
    await page.evaluate(() => {
      const seen = new Set<string>();
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="review-notice"]')?.textContent;
        if (text && !seen.has(text)) {
          seen.add(text);
          void (window as unknown as { noteNotice: (t: string) => Promise<void> }).noteNotice(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });

    // `a` as fast as the reviewer can: a press while the next item is still coming does nothing.
    const deadline = Date.now() + 60_000;
    while ((await shownItems()).length <= DECISIONS && Date.now() < deadline) {
      await page.keyboard.press('a');
      // A fixed pace, not a wait for the next item: keys outrunning the screen are the case under test.
      await page.waitForTimeout(KEY_INTERVAL_MS);
    }
    const shown = await shownItems();
    // Every item shown but the last was decided, and every decision is stored, once.
    await expect.poll(() => reviewsBy(userId).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(shown.length - 1);
    const stored = reviewsBy(userId).map((row) => row.item_id);
    expect(shown.length).toBeGreaterThan(DECISIONS);
    expect(shown.filter((id, index) => shown.indexOf(id) !== index)).toEqual([]);
    expect(stored.filter((id, index) => stored.indexOf(id) !== index)).toEqual([]);
    expect(stored).toEqual(shown.slice(0, stored.length));
    // No review refused ("already reviewed", "no live lease"), no lease lost on the way.
    expect(notices).toEqual([]);
    expect(await review.leaseExpired.count()).toBe(0);
  }, 120_000);
});
