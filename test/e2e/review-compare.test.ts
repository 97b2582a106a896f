import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chartTypeFromAnnotation } from '../../shared/domain/infer-chart-type';
import { tableFromCells } from '../../shared/table/model';
import { buildChart, buildItem, buildQa } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';
import { DrawnChart } from './pages/drawn-chart';
import { ReviewPage } from './pages/review-page';
import { screenshot, SignedInBrowsers } from './signed-in-browsers';

/**
 * Issue 33 point 5, charts that can be compared: the counterfactual is drawn the way the
 * original runs (a v_bar annotation: vertical bars, though labels this long would otherwise lay
 * them flat), on the same value axis as the original drawn from its table (`t`), the bar the
 * edit changed outlined in both, its text at a readable size on a laptop screen.
 */

const REVIEWER = { username: 'vera', password: 'compare-pass-1' };
/** Pew's way: long answers as categories, two parties as series. */
const OPINIONS = tableFromCells(
  ['Opinion', 'Republicans', 'Democrats'],
  [
    ['Very confident in the count', '20', '60'],
    ['Somewhat confident in the count', '35', '30'],
    ['Not at all confident in the count', '45', '10'],
  ],
);
const ANNOTATION = { type: 'v_bar', models: [{ name: 'Republicans', color: 'firebrick' }, { name: 'Democrats', color: 'royal blue' }] };
/** The edit doubles the chart's largest value. */
const DOUBLED = { row: 'Very confident in the count', series: 'Democrats', from: 60, to: 120 };
/** Smallest text on screen a reviewer reads without leaning in (11 px drawn, shown at scale ≥ 0.9). */
const MIN_READABLE_PX = 10;

let server: TestServer;
const browsers = new SignedInBrowsers();
let itemId: number;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
  const db = server.server.ctx.db;
  const chartType = chartTypeFromAnnotation(ANNOTATION.type, OPINIONS.series.length) ?? 'vertical_bar';
  const chartId = buildChart(db, { title: 'Confidence in the count, by party', chartType, table: OPINIONS, annotation: ANNOTATION });
  const qaId = buildQa(db, { chartId, query: 'What share of Democrats are very confident in the count?', label: '60' });
  itemId = buildItem(db, {
    qaId,
    draft: {
      assumption: 'Suppose the share of very confident Democrats doubled.',
      question: 'Suppose the share of very confident Democrats doubled. What share of Democrats are very confident in the count?',
      edit: [{ op: 'set', row: DOUBLED.row, series: DOUBLED.series, value: DOUBLED.to }],
    },
  });
});

afterAll(async () => {
  await server?.close();
});

afterEach(async () => {
  await browsers.closeAll();
});

describe('the counterfactual beside the original drawn from its table', () => {
  it('runs as the annotation says, shares the value axis with the original, outlines the changed bar in both, and reads at its own size', async () => {
    const page = await browsers.signIn(server.url, REVIEWER, null);
    const review = await new ReviewPage(page, server.url).goto();
    expect(await review.shownItemId()).toBe(itemId);
    expect(await review.counterfactualState()).toBe('drawn');
    const counterfactual = await new DrawnChart(review.chartFlip.getByTestId('counterfactual-chart')).drawn();

    await page.waitForFunction((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0, await review.originalImage.elementHandle());
    await screenshot(page, 'review-compare-counterfactual');
    // Vertical, as v_bar says: the value axis runs up (Y), the categories across.
    expect(await counterfactual.valueAxisDirection()).toBe('Y');
    const ticks = await counterfactual.valueTicks();
    const [, top] = await counterfactual.valueAxisEnds();
    expect(top).toBeGreaterThanOrEqual(DOUBLED.to);
    expect(Math.max(...ticks)).toBeGreaterThan(DOUBLED.from);

    // The doubled bar, and only it, is outlined; the note says what an outline means.
    const [changed, ...others] = await counterfactual.outlinedMarks();
    expect(changed).toBeDefined();
    expect(others).toEqual([]);
    expect(await review.chartFlip.getByTestId('highlight-note').first().textContent()).toContain('Outlined: changed by the edit');

    // Drawn at the size it is shown: an axis label at its own 11 px, not shrunk to 5.
    const label = await counterfactual.shownLabelFontSize();
    expect(label.fontSize).toBeGreaterThanOrEqual(MIN_READABLE_PX);
    expect(label.boxHeight).toBeGreaterThanOrEqual(MIN_READABLE_PX);

    await review.press('t');
    const original = await new DrawnChart(review.chartFlip.getByTestId('drawn-original-chart')).drawn();
    await screenshot(page, 'review-compare-original');
    // The same axis (alone, the original's would stop at 60), so the doubled bar stands twice as tall.
    expect(await original.valueTicks()).toEqual(ticks);
    expect((await original.valueAxisEnds())[1]).toBe(top);
    expect(await original.valueAxisDirection()).toBe('Y');
    const [before, ...rest] = await original.outlinedMarks();
    expect(rest).toEqual([]);
    expect(before?.x).toBeCloseTo(changed?.x ?? Number.NaN, 0);
    expect((changed?.height ?? 0) / (before?.height ?? 1)).toBeCloseTo(DOUBLED.to / DOUBLED.from, 1);
    expect((await original.shownLabelFontSize()).fontSize).toBeGreaterThanOrEqual(MIN_READABLE_PX);
  });
});
