import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RunConfigSchema } from '../../shared/api/runs';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { ReviewPage } from './pages/review-page';
import { signInSession } from './signed-in-browsers';

/**
 * Issue 33 point 7: the review screen works on a phone, 390×844 CSS pixels. Seen before: the
 * factual question one letter per line, Accept 3,827 px down the page.
 */
const PHONE = { width: 390, height: 844 };
/** Set to a directory (e.g. /tmp) to keep screenshots of the review page on a phone. */
const SCREENSHOT_DIR = process.env.HQA_E2E_SCREENSHOT_DIR;

let server: TestServer;
const sessions: BrowserSession[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const { executor } = server.server;
  await executor.start(executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: 8 }), null).id);
  await server.createUser('phoebe', 'reviewer', 'phone-pass-123');
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

async function onPhone(): Promise<{ page: Page; review: ReviewPage }> {
  const session = await openBrowser();
  sessions.push(session);
  await session.page.setViewportSize(PHONE);
  await signInSession(session, server.url, { username: 'phoebe', password: 'phone-pass-123' }, null);
  return { page: session.page, review: await new ReviewPage(session.page, server.url).goto() };
}

type Box = { x: number; y: number; width: number; height: number };

async function box(page: Page, testId: string): Promise<Box> {
  const found = await page.getByTestId(testId).first().boundingBox();
  if (!found) throw new Error(`${testId} is not on screen`);
  return found;
}

describe('the review screen at 390 px', () => {
  it('stacks one column, keeps the factual question readable, and has Accept on screen without scrolling past the charts', async () => {
    const { page, review } = await onPhone();
    const first = await review.shownItemId();
    await review.counterfactualState();
    if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/review-390.png`, fullPage: true });

    // Nothing wider than the screen: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The factual question runs across the column, a few lines, not a letter per line.
    const factual = await box(page, 'review-factual-query');
    const lineHeight = await page.getByTestId('review-factual-query').evaluate((element) => parseFloat(getComputedStyle(element).lineHeight) || 20);
    const text = (await page.getByTestId('review-factual-query').textContent()) ?? '';
    expect(factual.width).toBeGreaterThan(PHONE.width * 0.5);
    expect(factual.height / lineHeight).toBeLessThan(Math.max(4, text.length / 20));

    // Stacked: the item, then the charts, then the form, each the column's width.
    const question = await box(page, 'review-question');
    const charts = await box(page, 'item-charts');
    expect(charts.y).toBeGreaterThanOrEqual(question.y + question.height - 1);
    expect(charts.width).toBeGreaterThan(PHONE.width * 0.85);
    // One chart at a time: the counterfactual, the original flipped in its place with t.
    expect(await page.getByTestId('review-original-image').isVisible()).toBe(false);
    expect(charts.height).toBeLessThan(PHONE.height * 0.6);

    // Accept is on the first screen, without scrolling, and stays there while the page scrolls.
    const accept = await review.acceptButton.boundingBox();
    expect(accept).not.toBeNull();
    expect((accept?.y ?? PHONE.height) + (accept?.height ?? 0)).toBeLessThanOrEqual(PHONE.height);
    await page.mouse.wheel(0, 600);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const afterScroll = await review.acceptButton.boundingBox();
    expect((afterScroll?.y ?? PHONE.height) + (afterScroll?.height ?? 0)).toBeLessThanOrEqual(PHONE.height);

    // The flip shows the original in place; a tap on Accept decides.
    await review.press('t');
    await page.locator('[data-testid="chart-flip"][data-shown="original"] [data-testid="drawn-original-chart"][data-state="drawn"]').waitFor();
    await review.acceptButton.click();
    await review.waitForItemOtherThan(first);
  });

  it('opens the guidelines and the enlarged charts within the screen', async () => {
    const { page, review } = await onPhone();
    await review.shownItemId();
    await review.press('g');
    await review.guidelines.waitFor();
    const guidelines = await box(page, 'review-guidelines');
    expect(guidelines.width).toBeLessThanOrEqual(PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await review.press('g', 'z');
    // The charts enlarged: one item's, or a chart group's (the demo's second item is over a group).
    const zoomed = page.getByRole('dialog');
    await zoomed.waitFor();
    await zoomed.getByTestId('zoomed-original-image').first().waitFor();
    const zoom = await zoomed.boundingBox();
    expect(zoom?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((zoom?.x ?? 0) + (zoom?.width ?? PHONE.width + 1)).toBeLessThanOrEqual(PHONE.width);
    if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/review-390-zoom.png` });
    await review.press('Escape');
    await zoomed.waitFor({ state: 'detached' });
  });
});
