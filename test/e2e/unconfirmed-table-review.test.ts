import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toExtractedTable } from '../../shared/table-provenance/extracted-table';
import { importFolder } from '../../server/import/import-folder';
import { storeExtractedTable } from '../../server/tables/table-service';
import type { ItemDraftInput } from '../../server/items/item-service';
import { buildChart, buildItem, buildQa } from '../support/factories';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { ItemsListPage } from './pages/items-list-page';
import { ReviewPage } from './pages/review-page';
import { signInSession } from './signed-in-browsers';

/**
 * A reviewer judging an item on a table a vision model extracted and nobody confirmed: the
 * review screen marks it `unverified: table not confirmed` and shows the chart's own image,
 * large, to judge from; the review is done on keys. The Items list tags and filters such items.
 */

const MARK = 'unverified: table not confirmed';
let server: TestServer;
let session: BrowserSession | undefined;
let unconfirmedItem: number;
let confirmedItem: number;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser('rita', 'reviewer', 'reviewer-pass-1');
  await server.createUser('cora', 'curator', 'curator-pass-1');
  const db = server.server.ctx.db;
  importFolder(db, MULTICHARTQA_DATA, { format: 'multichartqa' });
  const chart = db.prepare("SELECT c.id FROM charts c WHERE c.split = 'multichartqa' AND EXISTS (SELECT 1 FROM factual_qas q WHERE q.chart_id = c.id) ORDER BY c.id LIMIT 1").get() as { id: number };
  const extracted = toExtractedTable({
    title: 'Daily cases',
    label_header: 'Year',
    series: [{ name: 'Germany', unit: null }],
    rows: [{ label: '2020', values: [12] }, { label: '2021', values: [20] }],
  });
  if (!extracted.ok) throw new Error(extracted.reason);
  storeExtractedTable(db, chart.id, extracted.value);
  // A question of this chart alone: MultiChartQA's own questions span the chart's whole group,
  // whose other charts have no table (test/integration/unconfirmed-tables.test.ts covers those).
  const qa = { id: buildQa(db, { chartId: chart.id, query: 'What was the number of daily cases in 2021?', label: '20' }) };
  const draft: Partial<ItemDraftInput> = { assumption: 'Suppose 2021 were 30.', question: 'Suppose 2021 were 30. What would 2021 be?', answer: '30', program: 'value("2021", "Germany")', edit: [{ op: 'set', row: '2021', series: 'Germany', value: 30 }] };
  unconfirmedItem = buildItem(db, { qaId: qa.id, draft });
  confirmedItem = buildItem(db, { qaId: buildQa(db, { chartId: buildChart(db, { split: 'with-table' }), label: '20' }) });
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** `username` signed in to a browser of their own, on no page yet: each test opens its own. */
async function signIn(username: string, password: string) {
  session = await openBrowser();
  await signInSession(session, server.url, { username, password }, null);
  return session.page;
}

const decisions = () => server.server.ctx.db.prepare('SELECT item_id, decision FROM reviews ORDER BY id').all() as { item_id: number; decision: string }[];

describe('reviewing an item on an unconfirmed table', () => {
  it('marks it, shows the original image to judge from, and takes the decision on keys; an item on a confirmed table has neither', async () => {
    const page = await signIn('rita', 'reviewer-pass-1');
    const review = await new ReviewPage(page, server.url).goto();
    const seen: number[] = [];
    for (let turn = 0; turn < 2; turn++) {
      const id = turn === 0 ? await review.shownItemId() : await review.waitForItemOtherThan(seen[0] ?? 0);
      seen.push(id);
      if (id === unconfirmedItem) {
        expect(await page.getByTestId('validity-table-unconfirmed').textContent()).toContain(MARK);
        const image = page.getByTestId('judge-from-image-img');
        await image.waitFor();
        await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
        expect(await page.getByTestId('judge-from-image').textContent()).toContain('the image is right');
      } else {
        expect(id).toBe(confirmedItem);
        expect(await page.getByTestId('validity-table-unconfirmed').count()).toBe(0);
        expect(await page.getByTestId('judge-from-image').count()).toBe(0);
      }
      await review.press('a');
      await expect.poll(() => decisions().length).toBe(turn + 1);
    }
    expect(new Set(seen)).toEqual(new Set([unconfirmedItem, confirmedItem]));
    expect(decisions().map((d) => d.decision)).toEqual(['accept', 'accept']);
  });

  it('is tagged in the Items list and found by its Table filter', async () => {
    const page = await signIn('cora', 'curator-pass-1');
    const list = await new ItemsListPage(page, server.url).goto();
    await list.row(unconfirmedItem).waitFor();
    expect(await list.row(unconfirmedItem).getByTestId('table-unconfirmed-tag').textContent()).toBe(MARK);
    expect(await list.row(confirmedItem).getByTestId('table-unconfirmed-tag').count()).toBe(0);
    await page.getByLabel('Table', { exact: true }).selectOption('unconfirmed');
    await page.waitForURL(/table=unconfirmed/);
    await expect.poll(() => list.list.locator('tbody tr[data-item-id]').count()).toBe(1);
    expect(await list.row(unconfirmedItem).count()).toBe(1);
  });
});
