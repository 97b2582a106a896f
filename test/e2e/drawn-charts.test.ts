import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DRAWN_CHART_NOTE } from '../../shared/chart-spec/drawing-style';
import { getQaWithChart } from '../../server/charts/chart-queries';
import { importSplit } from '../../server/import/import-split';
import { createVerifiedItem } from '../../server/items/item-service';
import type { HqaItemDraft } from '../../shared/generation/item-draft';
import { buildQa } from '../support/factories';
import { CHARTQA_EXTRA, CHARTQA_SAMPLE } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { ChartPage } from './pages/chart-page';
import { ReviewPage } from './pages/review-page';
import { signInSession } from './signed-in-browsers';
import { HUMAN_ITEM } from '../support/item-factory';

/**
 * On real ChartQA charts: the sample's (no PNG, drawn from the table) say they are drawn, and
 * their colour-naming questions warn the reviewer; the extra charts (their own PNG) say nothing.
 */

const REVIEWER = { username: 'remy', password: 'reviewer-pass-1' };
const COLOUR_WARNING = /This question names a colour, but this chart is drawn from its table without the original colours/;

let server: TestServer;
let session: BrowserSession | undefined;
let pngItem: number;
let drawnItem: number;

const db = () => server.server.ctx.db;

function chartId(imgname: string): number {
  return (db().prepare('SELECT id FROM charts WHERE imgname = ?').get(imgname) as { id: number }).id;
}

function itemOn(imgname: string, query: string, edit: HqaItemDraft['edit'] | null): number {
  const qa = db().prepare('SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.imgname = ? AND q.query = ?').get(imgname, query) as { id: number };
  const source = getQaWithChart(db(), qa.id);
  if (!source) throw new Error(`no question "${query}"`);
  const item = createVerifiedItem(db(), {
    source,
    draft: { assumption: 'Suppose the chart changed.', question: `Suppose the chart changed. ${query}`, answer: '1', answer_type: 'integer', rationale: 'e2e', affects_answer: true, edit, program: '1' },
    ...HUMAN_ITEM,
  });
  if (!item) throw new Error('not stored');
  return item.id;
}

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
  importSplit(db(), CHARTQA_SAMPLE);
  importSplit(db(), CHARTQA_EXTRA);
  // A colour-naming question on a chart with its own PNG: the reviewer sees the colours, no warning.
  const query = 'Which country is shown by the blue bar?';
  buildQa(db(), { chartId: chartId('two_col_41347.png'), query, label: 'China' });
  // The oldest item is claimed first: the PNG one, then the drawn one.
  pngItem = itemOn('two_col_41347.png', query, null);
  drawnItem = itemOn('3398.png', 'Is the value of light green bar 35 in 1989?', [{ op: 'set', row: '2014', series: 'Centrist', value: 12 }]);
});

afterAll(async () => {
  await server?.close();
});

afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** The reviewer signed in to a browser of their own, on no page yet: each test opens its own. */
async function signIn(): Promise<Page> {
  session = await openBrowser();
  await signInSession(session, server.url, REVIEWER, null);
  return session.page;
}

describe('drawn charts in the browser', () => {
  it('the review screen captions drawn charts and warns on a colour it cannot show; an original PNG gets neither', async () => {
    const page = await signIn();
    const review = await new ReviewPage(page, server.url).goto();
    expect(await review.shownItemId()).toBe(pngItem);
    await review.originalImage.waitFor();
    expect(await page.getByTestId('drawn-chart-note').count()).toBe(0);
    expect(await page.getByTestId('colour-warning').count()).toBe(0);

    await review.press('s');
    expect(await review.waitForItemOtherThan(pngItem)).toBe(drawnItem);
    expect(await review.counterfactualState()).toBe('drawn');
    // Under the original (drawn: no PNG) and under the counterfactual chart.
    await expect.poll(() => page.getByTestId('drawn-chart-note').allTextContents()).toEqual([DRAWN_CHART_NOTE, DRAWN_CHART_NOTE]);
    const warning = page.getByTestId('colour-warning');
    expect(await warning.textContent()).toMatch(COLOUR_WARNING);
    expect(await warning.textContent()).toContain('light green');
  });

  it('the item page warns next to the factual question only on the drawn chart', async () => {
    const page = await signIn();
    await page.goto(`${server.url}/items/${drawnItem}`);
    const factual = page.getByTestId('factual-question');
    await factual.waitFor();
    expect(await factual.getByTestId('colour-warning').textContent()).toMatch(COLOUR_WARNING);
    await page.goto(`${server.url}/items/${pngItem}`);
    await page.getByRole('heading', { level: 1, name: `Item #${pngItem}` }).waitFor();
    await page.getByTestId('factual-question').waitFor();
    expect(await page.getByTestId('colour-warning').count()).toBe(0);
  });

  it('the chart page captions a drawn chart and not a PNG', async () => {
    const page = await signIn();
    const chart = new ChartPage(page);
    await page.goto(`${server.url}/charts/${chartId('3398.png')}`);
    await chart.waitForLoad();
    expect(await chart.imageLoaded()).toBe(true);
    expect(await page.getByTestId('drawn-chart-note').textContent()).toBe(DRAWN_CHART_NOTE);

    await page.goto(`${server.url}/charts/${chartId('two_col_41347.png')}`);
    await page.getByRole('heading', { level: 1, name: 'two_col_41347.png' }).waitFor();
    await chart.waitForLoad();
    expect(await chart.imageLoaded()).toBe(true);
    expect(await page.getByTestId('drawn-chart-note').count()).toBe(0);
  });
});
