import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reviewApi } from '../../shared/api/review';
import { putSettings } from '../../server/settings/settings-queries';
import { TestClient } from '../support/http-client';
import { acceptReview, generateItems, rejectReview } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { PoolAnalyticsPage } from './pages/pool-analytics-page';
import { PoolPage } from './pages/pool-page';
import { ProposalPage } from './pages/proposal-page';
import { ReviewPage } from './pages/review-page';
import { StatsPage } from './pages/stats-page';
import { SignedInBrowsers, screenshot, type Credentials } from './signed-in-browsers';

const CURATOR = { username: 'cora', password: 'curator-pass-1' };
const REVIEWER = { username: 'rita', password: 'reviewer-pass-2' };
/** Decides a few items over the API so the figures have accepted items to show. */
const API_REVIEWER = { username: 'raul', password: 'reviewer-pass-3' };
/** Watches the Pool list in a browser of its own. */
const WATCHER = { username: 'wanda', password: 'reviewer-pass-4' };
const ITEMS = 16;
const ACCEPTED_OVER_API = 4;
/** Rejected over the API before the batch: enough to revise at least one proposal, too few to retire one. */
const REJECTED_FOR_BATCH = 3;
const FEEDBACK = 'The halved series runs off the axis; keep every value inside the plotted range.';

let server: TestServer;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  server = await startTestServer();
  // Reflection happens only when the curator asks for it, so the test sees exactly that one; one
  // decided item is enough to reflect on here (the minimum's own test is an integration test).
  putSettings(server.server.ctx.db, { auto_reflect: false, reflection_min_decisions: 1 });
  for (const [user, role] of [
    [CURATOR, 'curator'],
    [REVIEWER, 'reviewer'],
    [API_REVIEWER, 'reviewer'],
    [WATCHER, 'reviewer'],
  ] as const) {
    await server.createUser(user.username, role, user.password);
  }
  await generateItems(server, ITEMS);
  const api = new TestClient(server.url);
  await api.login(API_REVIEWER.username, API_REVIEWER.password);
  for (let i = 0; i < ACCEPTED_OVER_API; i++) {
    const { task } = await api.call(reviewApi.next, { body: {} });
    if (!task) throw new Error('the queue ran dry');
    const res = await api.send(reviewApi.submit, { params: { id: task.item.id }, body: acceptReview({ complexity: 3 }) });
    if (res.status >= 300) throw new Error(`accepting item ${task.item.id} failed: ${res.status}`);
  }
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => browsers.closeAll());

/** `user` signed in to a browser of their own, on no page yet: every test opens one next. */
const signIn = (user: Credentials) => browsers.signIn(server.url, user, null);

function itemRow(itemId: number): { status: string; proposal_id: number; chart_type: string } {
  return server.server.ctx.db
    .prepare('SELECT i.status, i.proposal_id, p.chart_type FROM hqa_items i JOIN proposals p ON p.id = i.proposal_id WHERE i.id = ?')
    .get(itemId) as { status: string; proposal_id: number; chart_type: string };
}

function storedProposal(id: number): { origin: string; status: string; round: number; text: string } | undefined {
  return server.server.ctx.db.prepare('SELECT origin, status, round, text FROM proposals WHERE id = ?').get(id) as
    | { origin: string; status: string; round: number; text: string }
    | undefined;
}

describe('reflection in the browser', () => {
  it('a rejection with feedback is reflected into a revised proposal: every open Pool page shows it at once, and its lineage names the parent', async () => {
    // A reviewer rejects the item on screen with the keyboard: layout fails, with feedback.
    const review = await new ReviewPage(await signIn(REVIEWER), server.url).goto();
    const itemId = await review.shownItemId();
    await review.press('3', 'f');
    await review.type(FEEDBACK);
    await review.press('Escape', 'r');
    await review.waitForItemOtherThan(itemId);
    await expect.poll(() => itemRow(itemId).status).toBe('rejected');
    const { proposal_id: parentId, chart_type: chartType } = itemRow(itemId);
    const parentText = storedProposal(parentId)?.text ?? '';

    // Someone else has the Pool list of that chart type open; a marker on its window shows it is never reloaded.
    const watcherPage = await signIn(WATCHER);
    const watcher = await new PoolPage(watcherPage, server.url).goto(`?type=${chartType}`);
    await watcherPage.evaluate(() => Object.assign(window, { hqaNotReloaded: true }));
    const listedBefore = await watcher.proposalIds();

    // The curator sees the feedback on the item's proposal and reflects.
    const curatorPage = await signIn(CURATOR);
    const proposal = await new ProposalPage(curatorPage, server.url).goto(parentId);
    const entry = proposal.feedbackFor(itemId);
    await entry.waitFor();
    expect(await entry.textContent()).toContain(FEEDBACK);
    expect(await entry.textContent()).toContain('Layout consistency');
    expect(await proposal.reflections.count()).toBe(0);
    expect(await proposal.lineageRelations()).toEqual([[parentId, 'self']]);

    const revisedId = await proposal.reflect();
    expect(listedBefore).not.toContain(revisedId);
    expect(await proposal.reflectResult.textContent()).toContain('round 1');
    // The offline reviser is rules, and says so; it answered the layout failure.
    await expect.poll(() => proposal.reflections.count()).toBe(1);
    const reflection = proposal.reflections.first();
    expect(await reflection.getAttribute('data-status')).toBe('done');
    expect(await reflection.getByTestId('reflection-engine').textContent()).toBe('offline-rules (rule-based, no LLM)');
    expect(await reflection.getByTestId('reflection-addressed').textContent()).toContain('layout failed');
    expect(await reflection.getByTestId('reflection-revision').textContent()).toBe(`#${revisedId}`);
    await expect.poll(() => proposal.lineageRelations()).toEqual([
      [parentId, 'self'],
      [revisedId, 'descendant'],
    ]);
    expect(storedProposal(revisedId)).toMatchObject({ origin: 'revised', status: 'active', round: 1 });
    expect(storedProposal(revisedId)?.text).not.toBe(parentText);
    await screenshot(curatorPage, 'proposal-reflected');

    // The watcher's list shows the revision without a reload (proposal.created).
    await watcher.proposal(revisedId).waitFor();
    expect(await watcher.proposal(revisedId).getByTestId('proposal-status').textContent()).toBe('active');
    expect(await watcher.proposal(revisedId).textContent()).toContain('revised');
    expect(await watcherPage.evaluate(() => 'hqaNotReloaded' in window)).toBe(true);

    // The revision's own page: its parent above it in the lineage, linked.
    await proposal.reflectResult.getByTestId('reflect-revised-link').click();
    await proposal.waitForProposal(revisedId);
    await expect.poll(() => proposal.lineageRelations()).toEqual([
      [parentId, 'ancestor'],
      [revisedId, 'self'],
    ]);
    const parentNode = proposal.lineage.locator(`[data-testid="lineage-node"][data-proposal-id="${parentId}"]`);
    expect(await parentNode.getByRole('link', { name: `#${parentId}` }).getAttribute('href')).toBe(`/pool/${parentId}`);
    expect(await proposal.reflections.count()).toBe(0);
    await screenshot(curatorPage, 'proposal-revised');
  }, 60_000); // three users' browsers, a review, a reflection and two live pages: over 30 s on a loaded 2-core machine

  it('a curator reflects on every proposal of a chart type with new rejections at once, and watches the batch progress to done live', async () => {
    // Rejections over the API give proposals new feedback; the batch takes the first one's chart type.
    const api = new TestClient(server.url);
    await api.login(API_REVIEWER.username, API_REVIEWER.password);
    const rejected: number[] = [];
    for (let i = 0; i < REJECTED_FOR_BATCH; i++) {
      const { task } = await api.call(reviewApi.next, { body: {} });
      if (!task) throw new Error('the queue ran dry');
      const res = await api.send(reviewApi.submit, { params: { id: task.item.id }, body: rejectReview(FEEDBACK) });
      if (res.status >= 300) throw new Error(`rejecting item ${task.item.id} failed: ${res.status}`);
      rejected.push(task.item.id);
    }
    const chartType = itemRow(rejected[0] ?? 0).chart_type;
    const lastProposalId = () => (server.server.ctx.db.prepare('SELECT MAX(id) AS id FROM proposals').get() as { id: number }).id;
    const before = lastProposalId();

    const page = await signIn(CURATOR);
    const pool = await new PoolPage(page, server.url).goto(`?type=${chartType}`);
    await page.evaluate(() => Object.assign(window, { hqaNotReloaded: true }));
    expect(await pool.batchStatus.count()).toBe(0);
    await pool.reflectAllButton.click();

    await expect.poll(() => pool.batchStatus.getAttribute('data-status')).toBe('done');
    expect(await pool.batchFigure('total')).toBeGreaterThanOrEqual(1);
    expect(await pool.batchFigure('done')).toBe(await pool.batchFigure('total'));
    expect(await pool.batchFigure('revised')).toBeGreaterThanOrEqual(1);
    // The summary counts what happened: each reflection once, as revised, a duplicate of the pool, or failed.
    // (A proposal's reviser may fail, e.g. with too few decisions in a loaded run's timing: the summary says so, not 0.)
    const failed = await pool.batchFigure('failed');
    const summary = (await page.getByTestId('reflection-batch-done').textContent()) ?? '';
    expect(summary).toMatch(new RegExp(`^Done: ${await pool.batchFigure('revised')} revised · (\\d+ duplicates? of the pool · )?${failed} failed\\.$`));
    const duplicates = Number(/(\d+) duplicates? of the pool/.exec(summary)?.[1] ?? 0);
    expect((await pool.batchFigure('revised')) + duplicates + failed).toBe(await pool.batchFigure('total'));
    // Only proposals of the filtered type were revised, and the list shows them without a reload.
    const revisions = server.server.ctx.db
      .prepare("SELECT id, chart_type FROM proposals WHERE id > ? AND origin = 'revised' AND status <> 'duplicate'")
      .all(before) as { id: number; chart_type: string }[];
    expect(revisions.length).toBe(await pool.batchFigure('revised'));
    expect(new Set(revisions.map((r) => r.chart_type))).toEqual(new Set([chartType]));
    await pool.proposal(revisions[0]?.id ?? 0).waitFor();
    expect(await page.evaluate(() => 'hqaNotReloaded' in window)).toBe(true);
    await screenshot(page, 'reflection-batch');

    // A page opened after the batch (or a reconnect) shows the newest batch, as the server has it.
    const revised = await pool.batchFigure('revised');
    await page.reload();
    await expect.poll(() => pool.batchStatus.getAttribute('data-status')).toBe('done');
    expect(await pool.batchFigure('revised')).toBe(revised);
  });

  it('Reflect on a proposal none of whose items was reviewed says why, and revises nothing', async () => {
    const { id } = server.server.ctx.db
      .prepare(
        `SELECT p.id FROM proposals p WHERE p.status = 'active'
         AND NOT EXISTS (SELECT 1 FROM reviews r JOIN hqa_items i ON i.id = r.item_id WHERE i.proposal_id = p.id) ORDER BY p.id LIMIT 1`,
      )
      .get() as { id: number };
    const countProposals = () => (server.server.ctx.db.prepare('SELECT COUNT(*) AS n FROM proposals').get() as { n: number }).n;
    const before = countProposals();

    const proposal = await new ProposalPage(await signIn(CURATOR), server.url).goto(id);
    await proposal.reflectButton.click();
    await proposal.reflectError.waitFor();
    expect(await proposal.reflectError.textContent()).toContain('no reviewed items yet');
    expect(await proposal.reflections.count()).toBe(0);
    expect(countProposals()).toBe(before);
  });

  it('a reviewer does not get the Reflect button', async () => {
    const { proposal_id: id } = server.server.ctx.db.prepare('SELECT proposal_id FROM hqa_items WHERE proposal_id IS NOT NULL LIMIT 1').get() as {
      proposal_id: number;
    };
    const proposal = await new ProposalPage(await signIn(REVIEWER), server.url).goto(id);
    await proposal.page.getByRole('heading', { level: 2, name: 'Reflections' }).waitFor();
    expect(await proposal.reflectButton.count()).toBe(0);
  });

  it('draws the pool analytics in the browser under the CSP, and shows curators the comparison and the coverage map', async () => {
    const page = await signIn(CURATOR);
    const analytics = await new PoolAnalyticsPage(page, server.url).goto();
    for (const figure of ['pool-growth', 'pass-rate-by-type', 'pass-rate-by-round', 'operation-sunburst']) {
      expect(await analytics.figureState(figure), figure).toBe('drawn');
    }
    expect(await analytics.sunburst.locator('svg path').count()).toBeGreaterThan(2);
    expect(Number(await analytics.distinctOperations.textContent())).toBeGreaterThan(0);
    // Another chart type: a new sunburst and its operations.
    const options = await analytics.sunburstType.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options.length).toBeGreaterThan(1);
    expect(await analytics.showSunburstOf(options[1] ?? '')).toBe('drawn');
    expect(await analytics.operationTable.locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'pool-analytics');

    const stats = await new StatsPage(page, server.url).goto();
    const machine = stats.ablationRow('Machine');
    await machine.waitFor();
    const unitCost = () => machine.getByTestId('unit-cost').textContent();
    await expect.poll(unitCost).toMatch(/^\$\d/);
    const atDefaultRate = Number((await unitCost())?.replace('$', ''));
    // Offline items cost no LLM money: the unit cost is reviewer time, so it doubles with the rate.
    await stats.hourlyRate.fill('60');
    await expect.poll(async () => Number((await unitCost())?.replace('$', ''))).toBeCloseTo(2 * atDefaultRate, 3);
    await stats.coverageHeat.waitFor();
    expect(await stats.coverageHeat.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await stats.thinnest.locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'stats-analytics');
  });
});
