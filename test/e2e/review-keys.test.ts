import { describe, expect, it } from 'vitest';
import { AdminPage } from './pages/admin-page';
import { ReviewPage } from './pages/review-page';
import { reviewServer } from './review-server';

/**
 * Issue 33: a second tab on the same item is told when the first decides it and keeps its text
 * (point 3); the charts enlarge and flip on keys, and the criteria's guidelines, written by an
 * admin in Markdown, are one key away (point 4). Keyboard only, in Chromium.
 */
/** Set to a directory (e.g. /tmp) to keep screenshots of the flipped charts, the enlarged ones and the guidelines. */
const SCREENSHOT_DIR = process.env.HQA_E2E_SCREENSHOT_DIR;

const fixture = reviewServer(30);
const signedIn = (role: 'reviewer' | 'admin') => fixture.signIn(`keys-${role}`, role);

const reviewsOf = (userId: number, itemId: number) =>
  fixture.server.server.ctx.db.prepare('SELECT decision FROM reviews WHERE reviewer_id = ? AND item_id = ?').all(userId, itemId) as { decision: string }[];

describe('two tabs on the same item', () => {
  it('the second tab is told the item was decided in the first, keeps what it typed as a draft, and moves on with s', async () => {
    const { context, page, userId } = await signedIn('reviewer');
    const one = await new ReviewPage(page, fixture.server.url).goto();
    const itemId = await one.shownItemId();
    // The second tab resumes the reviewer's own lease: the same item.
    const two = await new ReviewPage(await context.newPage(), fixture.server.url).goto();
    await two.waitForItem(itemId);

    await two.press('3', 'f');
    await two.type('Tab two: the shares no longer add up.');
    await two.press('Escape');
    await one.press('a');
    await one.waitForItemOtherThan(itemId);

    await two.decidedElsewhere.waitFor();
    expect(await two.decidedElsewhere.textContent()).toContain(`Item #${itemId} was decided elsewhere`);
    expect(await two.shownItemId()).toBe(itemId);
    expect(await two.feedback.inputValue()).toBe('Tab two: the shares no longer add up.');
    // The first tab's stored review cleared its own draft, not the second tab's.
    const draftKey = `hqa.review-draft.v1.${userId}.${itemId}`;
    await expect.poll(() => two.page.evaluate((key) => localStorage.getItem(key) ?? '', draftKey)).toContain('Tab two: the shares no longer add up.');

    // a and r send nothing and say why; s goes on.
    await two.press('r');
    await two.notice.waitFor();
    expect(await two.notice.textContent()).toContain(`Item #${itemId} was decided elsewhere`);
    expect(await two.notice.textContent()).toContain('press s for the next item');
    await two.press('a');
    expect(reviewsOf(userId, itemId)).toEqual([{ decision: 'accept' }]);
    await two.press('s');
    await two.waitForItemOtherThan(itemId);
    expect(await two.decidedElsewhere.count()).toBe(0);
  });
});

describe('chart keys', () => {
  it('t flips the counterfactual and the original drawn in its place; z enlarges both, t flips there too; ? lists the keys', async () => {
    const { page } = await signedIn('reviewer');
    const review = await new ReviewPage(page, fixture.server.url).goto();
    // An item whose edit applies (drawn counterfactual): skip the others.
    for (let tries = 0; tries < 10; tries++) {
      const shown = await review.shownItemId();
      if ((await page.getByTestId('item-charts').getAttribute('data-counterfactual')) === 'drawn') break;
      await review.press('s');
      await review.waitForItemOtherThan(shown);
    }
    const flip = review.chartFlip;
    await flip.locator('[data-testid="counterfactual-chart"][data-state="drawn"]').waitFor();
    expect(await flip.getAttribute('data-shown')).toBe('counterfactual');
    const before = await flip.boundingBox();

    await review.press('t');
    expect(await flip.getAttribute('data-shown')).toBe('original');
    await flip.locator('[data-testid="drawn-original-chart"][data-state="drawn"]').waitFor();
    expect(await page.getByTestId('flip-caption').first().textContent()).toBe('Original, drawn from its table');
    if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/review-flipped.png` });
    // In place: the same box on the page, the counterfactual kept drawn under it.
    expect(await flip.boundingBox()).toEqual(before);
    expect(await flip.getByTestId('counterfactual-chart').isVisible()).toBe(false);
    await review.press('t');
    expect(await flip.getAttribute('data-shown')).toBe('counterfactual');
    expect(await flip.getByTestId('counterfactual-chart').isVisible()).toBe(true);

    await review.press('z');
    await review.chartsZoom.waitFor();
    await review.chartsZoom.getByTestId('zoomed-original-image').waitFor();
    const zoomedFlip = review.chartsZoom.getByTestId('zoomed-chart-flip');
    await zoomedFlip.locator('[data-testid="zoomed-counterfactual-chart"][data-state="drawn"]').waitFor();
    expect((await zoomedFlip.boundingBox())?.width ?? 0).toBeGreaterThan(before?.width ?? 0);
    // The review keys rest behind the dialog: 1 toggles nothing; t flips the enlarged charts.
    await review.press('1', 't');
    expect(await zoomedFlip.getAttribute('data-shown')).toBe('original');
    await zoomedFlip.locator('[data-testid="zoomed-drawn-original-chart"][data-state="drawn"]').waitFor();
    if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/review-charts-zoom.png` });
    expect(await review.criterionPasses('Rationality')).toBe(true);
    await review.press('z');
    await review.chartsZoom.waitFor({ state: 'detached' });
    expect(await flip.getAttribute('data-shown')).toBe('original');

    await review.press('?');
    await review.keysOverlay.waitFor();
    const overlay = (await review.keysOverlay.textContent()) ?? '';
    expect(overlay).toContain('enlarge the charts');
    expect(overlay).toContain('toggle original / counterfactual in place');
    expect(overlay).toContain('guidelines for the three criteria');
    expect(overlay).toContain('claim the item again');
    await review.press('Escape');
  });
});

describe('guidelines', () => {
  it('an admin writes a criterion guideline in Markdown; a reviewer reads it with g, rendered, its HTML kept as text, the keys still working', async () => {
    const admin = await signedIn('admin');
    const adminPage = await new AdminPage(admin.page, fixture.server.url).goto();
    await adminPage.saveGuideline(
      'Rationality',
      '## When to fail\n\n**Fail** when the assumption *names* the answer:\n\n- a rank clause\n- `max` of the edited row\n\n<img src=x onerror="window.hacked=1"> [more](javascript:window.hacked=2)',
    );

    const { page } = await signedIn('reviewer');
    const review = await new ReviewPage(page, fixture.server.url).goto();
    await review.shownItemId();
    await review.press('g');
    await review.guidelines.waitFor();
    const rationality = review.guidelines.locator('[data-criterion="rationality"]');
    await rationality.getByRole('heading', { name: 'When to fail' }).waitFor();
    expect(await rationality.locator('strong').textContent()).toBe('Fail');
    expect(await rationality.locator('em').textContent()).toBe('names');
    expect(await rationality.locator('li').allTextContents()).toEqual(['a rank clause', 'max of the edited row']);
    expect(await rationality.textContent()).toContain('<img src=x onerror="window.hacked=1">');
    expect(await rationality.locator('img').count()).toBe(0);
    expect(await rationality.locator('a').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
    // The other criteria keep their defaults.
    expect(await review.guidelines.locator('[data-criterion="layout"]').textContent()).toContain('still do');
    if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/review-guidelines.png` });

    // Not modal: the review's keys work while it is open.
    await review.press('1');
    expect(await review.criterionPasses('Rationality')).toBe(false);
    await review.press('g');
    await review.guidelines.waitFor({ state: 'detached' });
  });
});
