import { describe, expect, it } from 'vitest';
import { UI_TIMEOUT_MS } from './browser';
import { ReviewPage } from './pages/review-page';
import { reviewServer } from './review-server';

/**
 * Issue 33 point 6: the next item is shown whole the moment the key is pressed. While the
 * reviewer is on an item, the one claimed behind it has its images loaded and its charts drawn;
 * when it is shown, no chart of it is ever "Drawing…" and its image is already there. (The time
 * it takes is measured by bench/review-next.ts; this test checks what makes it fast.)
 */
/** Items decided in a row. */
const PRESSES = 4;
const fixture = reviewServer(20);

/** How an item's workspace looked in the first moment it was in the page (before any paint). */
type FirstSight = { itemId: number; charts: string[]; imagesComplete: boolean[] };

describe('the next item', () => {
  it('is shown with its charts already drawn and its image already loaded', async () => {
    const { page } = await fixture.signIn('swift');
    // Recorded from the start: the first item is drawn on the spot (it could not be prepared).
    await page.addInitScript(() => {
      const sights: FirstSight[] = [];
      (window as unknown as { sights: FirstSight[] }).sights = sights;
      let last: Element | null = null;
      // A MutationObserver's callback runs before the browser paints what the mutation did.
      new MutationObserver(() => {
        const workspace = document.querySelector('[data-testid="review-workspace"]');
        if (!workspace || workspace === last) return;
        last = workspace;
        sights.push({
          itemId: Number(workspace.getAttribute('data-item-id')),
          charts: [...workspace.querySelectorAll('[role="img"][data-state]')].map((el) => `${el.getAttribute('data-state')}:${el.querySelector('svg') ? 'svg' : 'empty'}`),
          imagesComplete: [...workspace.querySelectorAll('img')].map((img) => img.complete && img.naturalWidth > 0),
        });
      }).observe(document, { subtree: true, childList: true });
    });
    const review = await new ReviewPage(page, fixture.server.url).goto();
    const first = await review.shownItemId();
    const sights = () => page.evaluate(() => (window as unknown as { sights: FirstSight[] }).sights);

    // Items are shown one after another, each pressed once the page says the one behind it is
    // ready. Charts are drawn ahead at the size the same kind of box (one chart, or a group's
    // strip) was last drawn at, so an item of a kind not shown before cannot be ready.
    const ready = page.getByTestId('review-next-ready');
    const prepared: number[] = [];
    for (let press = 0; press < PRESSES; press++) {
      const shown = await review.shownItemId();
      await expect.poll(async () => ((await ready.count()) > 0 ? Number(await ready.getAttribute('data-item-id')) : null), { timeout: UI_TIMEOUT_MS }).not.toBeNull();
      const readyId = Number(await ready.getAttribute('data-item-id'));
      expect(readyId).not.toBe(shown);
      prepared.push(readyId);
      await page.keyboard.press('a');
      await expect.poll(() => review.shownItemId(), { timeout: UI_TIMEOUT_MS }).toBe(readyId);
    }
    const seen = await sights();
    // The recorder can tell: the first item's counterfactual was still being drawn when it appeared.
    expect(seen[0]?.itemId).toBe(first);
    expect(seen[0]?.charts).toContain('drawing:empty');
    const kind = (sight: FirstSight) => (sight.imagesComplete.length > 1 ? 'group' : 'single');
    const checked = seen.filter((sight, i) => prepared.includes(sight.itemId) && seen.slice(0, i).some((before) => kind(before) === kind(sight)));
    expect(checked.length).toBeGreaterThan(0);
    for (const sight of checked) {
      expect(sight.charts.length, `item ${sight.itemId}`).toBeGreaterThan(0);
      expect(sight.charts, `item ${sight.itemId}`).toEqual(sight.charts.map(() => 'drawn:svg'));
      expect(sight.imagesComplete, `item ${sight.itemId}`).toEqual(sight.imagesComplete.map(() => true));
    }
    // Every item shown had its images there from the first moment, of whatever kind.
    expect(seen.slice(1).every((sight) => sight.imagesComplete.every(Boolean))).toBe(true);
  }, 90_000);
});
