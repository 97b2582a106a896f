import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chartsApi } from '../../shared/api/charts';
import { runsApi } from '../../shared/api/runs';
import { hqaModel } from '../support/fake-hqa-model';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { RunPage } from './pages/run-page';
import { RunsPage } from './pages/runs-page';
import { SignedInBrowsers, screenshot } from './signed-in-browsers';

const CURATOR = { username: 'cora', password: 'curator-pass-1' };
/** Generous for a loaded CI box: a few polls 50 ms apart, then two stores. */
const RUN_DONE_TIMEOUT_MS = 60_000;

let server: TestServer;
let fake: FakeOpenAI;
let api: TestClient;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  // Held in progress until the test lets it finish, so the page can be seen showing it.
  // Offered a list (no proposal the rules can read moves the answer), the model declines, and says why.
  const choose = () => ({ decline: 'No listed proposal can change this answer: none of them touches the bars the question compares.' });
  fake = await startFakeOpenAI({ defaultHandler: hqaModel({ proposals: () => ['Multiply the second category by seven'], choose }), batches: { pollsToComplete: 1_000_000 } });
  server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url, batchPollMs: 50 } });
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  api = new TestClient(server.url);
  await api.login(CURATOR.username, CURATOR.password);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});
afterEach(() => browsers.closeAll());

describe('a batch generation run in the browser', () => {
  it('a curator ticks Batch, starts an openai run, sees its batch in progress live, then done with its items', async () => {
    const facets = await api.call(chartsApi.facets);
    // Grouped bars: the demo's image-only chart is a vertical bar (a run there names it and makes no item), and the seeds
    // can change most grouped-bar questions (a question none can change sends no request).
    const chartType = facets.chart_types.find((t) => t.chart_type === 'grouped_bar')?.chart_type ?? facets.chart_types[0]?.chart_type;
    if (!chartType) throw new Error('the demo split has no charts');

    const page = await browsers.signIn(server.url, CURATOR, null);
    const runs = await new RunsPage(page, server.url).goto();
    // The engine select enables openai once /api/health says a key is set.
    await expect.poll(() => runs.engine.locator('option[value="openai"]').isDisabled()).toBe(false);
    // The box belongs to the openai engine only.
    expect(await page.getByTestId('run-batch').count()).toBe(0);
    const created = fake.batches.created();
    await runs.startRun({ engine: 'openai', batch: true, stage: 'both', chartType, items: 4, proposalBatches: 1, concurrency: 1 });

    await page.waitForURL(/\/runs\/\d+$/);
    const run = new RunPage(page);
    // Stage 1's single request, answered by nobody yet: pushed over the socket after a poll.
    await expect.poll(() => run.batchStep.getAttribute('data-state'), { timeout: RUN_DONE_TIMEOUT_MS }).toBe('in_progress');
    expect((await run.batchStep.textContent())?.trim()).toBe('batch in progress 0 of 1');
    expect(fake.batches.created()).toBe(created + 1);
    await page.getByText('one batch per stage (OpenAI Batch API)').waitFor();
    await screenshot(page, 'batch-run-in-progress');
    // The Runs list says it too, in the run's row.
    const list = await new RunsPage(await browsers.signIn(server.url, CURATOR, null), server.url).goto();
    expect((await list.runRow(run.runId()).getByTestId('run-row-batch-progress').textContent())?.trim()).toBe('batch in progress 0 of 1');

    fake.batches.configure({ pollsToComplete: 1 });
    await expect.poll(() => run.statusText(), { timeout: RUN_DONE_TIMEOUT_MS, interval: 200 }).toBe('done');
    const { run: stored, declines } = await api.call(runsApi.get, { params: { id: run.runId() } });
    // A question no proposal of the pool can change is declined by the server and sent in no batch; every line made an item.
    const asked = stored.items_created;
    expect(asked).toBeGreaterThan(0);
    // A line went out for every item and every decline of the model's; the server's own declines sent none.
    const sent = asked + declines.filter((decline) => decline.declined_by === 'model').length;
    expect(stored).toMatchObject({ proposals_created: 1, items_failed: 0, items_declined: 4 - asked, batch_progress: { state: 'done', total: sent, completed: sent, failed: 0 } });
    expect(stored.config.batch).toBe(true);
    expect(fake.batches.created()).toBe(created + 2);
    await expect.poll(() => run.batchStep.textContent()).toContain('batch done');
    expect(await run.figure(run.itemsCreated)).toBe(asked);
    // Declines are counted apart from failures, and listed with who declined and why.
    await expect.poll(() => run.figure(run.itemsDeclined)).toBe(stored.items_declined);
    expect(await run.figure(run.itemsFailed)).toBe(0);
    // Four grouped-bar questions of the demo: one no proposal the rules read can change, declined by the model.
    expect(declines.length).toBeGreaterThan(0);
    await expect.poll(() => run.declineRows.count()).toBe(declines.length);
    for (const decline of declines) await run.declineRows.getByText(decline.reason).waitFor();
    await expect.poll(() => run.itemRows.count()).toBe(asked);
    expect(await run.itemRows.first().locator('.source-tag').textContent()).toBe('llm');
    await screenshot(page, 'batch-run-done');
  });
});
