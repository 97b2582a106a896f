import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ItemGroupSchema } from '../../shared/api/item-group';
import { itemsApi } from '../../shared/api/items';
import { runsApi } from '../../shared/api/runs';
import { tableFromCells } from '../../shared/table/model';
import { buildChart, buildChartGroup, buildItem, buildQa, setTablesConfirmed } from '../support/factories';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { AdjudicationPage } from './pages/adjudication-page';
import { ReviewPage } from './pages/review-page';
import { signInSession } from './signed-in-browsers';
import { exportApi } from '../../shared/api/export';

/**
 * A multi-chart item end to end: a curator's group of two charts with confirmed tables and a
 * question relating them (a form the offline engine reads), an offline run that writes a
 * verified item whose assumption edits one chart, a reviewer who sees both charts (the edited
 * one beside its counterfactual), moves between them in the zoom view and accepts on keys
 * only, and the export, whose item names both charts' images in order.
 */

const SPLIT = 'multi-chart-e2e';
/** What this test reads of an item's detail: the group it is written over. */
const ItemWithGroupSchema = z.object({ group: ItemGroupSchema.nullable() });
/** What this test reads of the export: each item's images, whatever else it holds. */
const ExportedImagesSchema = z.object({ items: z.array(z.looseObject({ images: z.array(z.string()).optional() })) });
const TITLES = ['Sales, $m', 'Costs, $m'] as const;
let server: TestServer;
let curator: TestClient;
let session: BrowserSession | undefined;
let itemId: number;
let editedChart: number;
let imgnames: string[];
let groupId: number;
let adjudicatedItem: number;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser('rita', 'reviewer', 'reviewer-pass-1');
  await server.createUser('cora', 'curator', 'curator-pass-1');
  const db = server.server.ctx.db;
  const charts = [
    buildChart(db, { split: SPLIT, chartType: 'line', title: TITLES[0], table: tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12'], ['2021', '15']]) }),
    buildChart(db, { split: SPLIT, chartType: 'vertical_bar', title: TITLES[1], table: tableFromCells(['Year', 'Costs'], [['2019', '4'], ['2020', '13'], ['2021', '9']]) }),
  ];
  // The offline engine writes group items only over confirmed tables, as a curator would have left them.
  setTablesConfirmed(db, charts);
  imgnames = charts.map((id) => (db.prepare('SELECT imgname FROM charts WHERE id = ?').get(id) as { imgname: string }).imgname);
  groupId = buildChartGroup(db, { chartIds: charts, split: SPLIT, name: 'Sales and costs' });
  const qaId = buildQa(db, { chartId: charts[0] as number, groupId, query: 'What is the difference between Sales in the first chart and Costs in the second chart in 2021?', label: '6' });

  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  const { run } = await curator.call(runsApi.create, { body: { engine: 'offline', stage: 'items', split: SPLIT, items: 5 } });
  await server.server.executor.start(run.id);
  const detail = await curator.call(runsApi.get, { params: { id: run.id } });
  expect(detail.run.status, JSON.stringify(detail.errors)).toBe('done');
  const items = (await curator.call(itemsApi.list, { query: { run_id: run.id, page_size: 50 } })).items;
  const item = items.find((candidate) => candidate.qa_id === qaId);
  if (!item) throw new Error(`the offline run wrote no item for the group question: ${JSON.stringify(detail.errors)}`);
  itemId = item.id;
  const { group } = ItemWithGroupSchema.parse((await curator.send(itemsApi.get, { params: { id: itemId } })).body);
  if (!group?.edited_chart) throw new Error(`item ${itemId} carries no group with an edited chart: ${JSON.stringify(group)}`);
  editedChart = group.edited_chart;

  // A hand-written item over the same group that its reviewers disagreed on, for the Adjudication page
  // (written after the run: a run plans no task for a question that already has an item).
  adjudicatedItem = buildItem(db, {
    qaId,
    status: 'needs_adjudication',
    draft: {
      assumption: 'Suppose Sales in 2021 were 20.',
      question: 'Suppose Sales in 2021 were 20. What would be the difference between Sales in the first chart and Costs in the second chart in 2021?',
      answer: '11',
      edit: [{ chart: 1, op: 'set', row: '2021', series: 'Sales', value: 20 }],
      program: 'diff(value(1, "2021", "Sales"), value(2, "2021", "Costs"))',
    },
  });
}, 60_000);
afterAll(async () => {
  await session?.close();
  await server?.close();
});

const decisions = () => server.server.ctx.db.prepare('SELECT item_id, decision FROM reviews ORDER BY id').all() as { item_id: number; decision: string }[];

describe('a multi-chart item', () => {
  it('is reviewed with every chart of its group on screen, the edited one beside its counterfactual, and accepted on keys only', async () => {
    session = await openBrowser();
    const { page } = session;
    await signInSession(session, server.url, { username: 'rita', password: 'reviewer-pass-1' }, null);
    const review = await new ReviewPage(page, server.url).goto();
    expect(await review.shownItemId()).toBe(itemId);

    const strip = page.getByTestId('item-group-charts');
    await strip.waitFor();
    const other = editedChart === 1 ? 2 : 1;
    for (const position of [1, 2]) {
      const chart = strip.getByTestId(`group-chart-${position}`);
      expect(await chart.getByTestId('group-chart-name').textContent()).toBe(`Chart ${position} · ${TITLES[position - 1]}`);
      // Every chart's image is drawn (the server renders one from its table).
      const image = chart.getByTestId('review-original-image');
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    }
    const edited = strip.getByTestId(`group-chart-${editedChart}`);
    expect(await edited.getAttribute('data-edited')).toBe('true');
    expect(await edited.getByTestId('group-chart-edited-mark').textContent()).toBe('edited by the assumption');
    await edited.locator('[data-testid="counterfactual-chart"][data-state="drawn"]').waitFor();
    const unedited = strip.getByTestId(`group-chart-${other}`);
    expect(await unedited.getByTestId('group-chart-edited-mark').count()).toBe(0);
    expect(await unedited.getByTestId('counterfactual-chart').count()).toBe(0);
    expect(await page.getByTestId('verifier-edited-chart').textContent()).toContain(`Chart ${editedChart} · ${TITLES[editedChart - 1]}`);

    // The zoom view, on keys: ] and [ move between the charts, a digit picks one; the review's
    // own digit keys (criteria) rest while it is open.
    const rationalityBefore = await review.criterionPasses('Rationality');
    await strip.getByTestId(`group-chart-${other}`).getByTestId('group-chart-enlarge').focus();
    await review.press('Enter');
    const zoom = page.getByTestId('group-chart-zoom');
    await zoom.waitFor();
    expect(await zoom.getAttribute('data-shown')).toBe(String(other));
    await review.press(']');
    await expect.poll(() => zoom.getAttribute('data-shown')).toBe(String(editedChart));
    expect(await zoom.getByTestId('group-chart-zoom-title').textContent()).toBe(`Chart ${editedChart} · ${TITLES[editedChart - 1]} — edited by the assumption`);
    await zoom.locator('[data-testid="zoomed-counterfactual-chart"][data-state="drawn"]').waitFor();
    await review.press('1');
    await expect.poll(() => zoom.getAttribute('data-shown')).toBe('1');
    expect(await review.criterionPasses('Rationality')).toBe(rationalityBefore);
    await review.press('Escape');
    await zoom.waitFor({ state: 'detached' });
    expect(await strip.getByTestId('group-chart-1').getByTestId('group-chart-enlarge').evaluate((button) => button === document.activeElement)).toBe(true);

    // The review's key overlay lists the zoom view's keys.
    await review.press('?');
    expect(await review.keysOverlay.textContent()).toContain('previous / next chart');
    await review.press('Escape');
    await review.keysOverlay.waitFor({ state: 'detached' });

    await review.press('a');
    await expect.poll(() => decisions()).toEqual([{ item_id: itemId, decision: 'accept' }]);
    await expect.poll(() => (server.server.ctx.db.prepare('SELECT status FROM hqa_items WHERE id = ?').get(itemId) as { status: string }).status).toBe('accepted');
  }, 60_000);

  it('shows its group on the Item page (every chart, linked) and on each chart’s page', async () => {
    await session?.close();
    session = await openBrowser();
    const { page } = session;
    await signInSession(session, server.url, { username: 'cora', password: 'curator-pass-1' }, `/items/${itemId}`);
    const strip = page.getByTestId('item-group-charts');
    await strip.waitFor();
    expect(await strip.getByTestId('group-chart-name').allTextContents()).toEqual(TITLES.map((title, index) => `Chart ${index + 1} · ${title}`));
    await strip.getByTestId(`group-chart-${editedChart}`).locator('[data-testid="counterfactual-chart"][data-state="drawn"]').waitFor();
    expect(await page.getByRole('heading', { name: /^Edit · / }).textContent()).toBe(`Edit · Chart ${editedChart} · ${TITLES[editedChart - 1]}`);
    const links = page.getByTestId('item-group-links').getByRole('link');
    expect(await links.allTextContents()).toEqual(TITLES.map((title, index) => `Chart ${index + 1} · ${title}`));

    // The second chart holds no question of the group, and still shows it is in one.
    await links.nth(1).click();
    const groups = page.getByTestId('chart-groups');
    await groups.waitFor();
    expect(await groups.textContent()).toContain('Sales and costs (chart 2 of 2)');
    expect(await groups.getByRole('link', { name: 'Sales and costs' }).getAttribute('href')).toBe(`/charts/groups/${groupId}`);
  }, 60_000);

  it('is adjudicated with every chart of its group on screen, the edit’s chart named', async () => {
    if (!session) throw new Error('the Item page test signs the curator in first');
    const adjudication = await new AdjudicationPage(session.page, server.url).goto();
    const strip = adjudication.case(adjudicatedItem).getByTestId('item-group-charts');
    await strip.waitFor();
    expect(await strip.getByTestId('group-chart-name').allTextContents()).toEqual(TITLES.map((title, index) => `Chart ${index + 1} · ${title}`));
    expect(await strip.getByTestId('group-chart-1').getAttribute('data-edited')).toBe('true');
    expect(await strip.getByTestId('group-chart-2').getAttribute('data-edited')).toBe('false');
    await strip.getByTestId('group-chart-1').locator('[data-testid="counterfactual-chart"][data-state="drawn"]').waitFor();
    expect(await adjudication.case(adjudicatedItem).getByRole('heading', { name: /^Data table · / }).textContent()).toBe(`Data table · Chart 1 · ${TITLES[0]} (edited)`);
  }, 60_000);

  it('is exported with the images of both charts, in group order', async () => {
    const res = await curator.send(exportApi.download);
    expect(res.status).toBe(200);
    const body = res.body instanceof ArrayBuffer ? (JSON.parse(Buffer.from(res.body).toString('utf8')) as unknown) : res.body;
    const doc = ExportedImagesSchema.parse(body);
    expect(doc.items).toHaveLength(1);
    expect(doc.items[0]?.images).toEqual(imgnames);
  });
});
