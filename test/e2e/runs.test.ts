import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ChartDetail, chartsApi } from '../../shared/api/charts';
import { itemsApi } from '../../shared/api/items';
import { runsApi } from '../../shared/api/runs';
import { OFFLINE_MODEL } from '../../shared/domain/generation';
import type { DataTable } from '../../shared/table/model';
import { runProgram } from '../../shared/table/program';
import { applyEdit, parseEdit } from '../../shared/table/edit';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { AppFrame } from './pages/app-frame';
import { ChartPage } from './pages/chart-page';
import { RunPage } from './pages/run-page';
import { RunsPage } from './pages/runs-page';
import { WriteItemForm } from './pages/write-item-form';
import { SignedInBrowsers, screenshot, type Credentials } from './signed-in-browsers';

const CURATOR = { username: 'cora', password: 'curator-pass-1' };
const REVIEWER = { username: 'rita', password: 'reviewer-pass-2' };
/** An offline run of this size finishes in seconds; the wait is generous for a loaded CI box. */
const RUN_DONE_TIMEOUT_MS = 60_000;

let server: TestServer;
let api: TestClient;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
  api = new TestClient(server.url);
  await api.login(CURATOR.username, CURATOR.password);
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => browsers.closeAll());

const signIn = (user: Credentials, path?: string | null) => browsers.signIn(server.url, user, path);

describe('generation runs in the browser', () => {
  it('a curator starts an offline run from the Runs page and watches it reach done live, then sees its items', async () => {
    const facets = await api.call(chartsApi.facets);
    const chartType = facets.chart_types.find((t) => t.chart_type === 'vertical_bar')?.chart_type ?? facets.chart_types[0]?.chart_type;
    if (!chartType) throw new Error('the demo split has no charts');

    // A reviewer watching the Runs list, loaded before the run exists: the list has no timer,
    // so the run can only reach it through socket pushes.
    const watcherPage = await signIn(REVIEWER, null);
    const watcher = await new RunsPage(watcherPage, server.url).goto();
    await watcherPage.getByText('No runs yet.').waitFor();

    const page = await signIn(CURATOR);
    await new AppFrame(page).navigate('Runs');
    const runs = new RunsPage(page, server.url);
    // No API key on the test server: only the offline engine can run, and the form says so.
    expect(await runs.engine.inputValue()).toBe('offline');
    expect(await runs.engine.locator('option[value="openai"]').isDisabled()).toBe(true);
    // The note follows /api/health, which may answer after the page first draws.
    await expect.poll(() => runs.engineNote.textContent()).toContain('No OPENAI_API_KEY');

    // Everything the run page shows from here on arrives over the socket: record the status
    // line as it changes, and mark the document so a reload would show.
    // The run's progress bar too, every state and percent it shows (`state:percent`).
    await page.evaluate(() => {
      const seen: string[] = [];
      const progress: string[] = [];
      Object.assign(window, { __statuses: seen, __progress: progress, __sameDocument: true });
      new MutationObserver(() => {
        const status = document.querySelector('h1 [data-testid="run-status"]')?.textContent ?? '';
        if (status && seen[seen.length - 1] !== status) seen.push(status);
        const bar = /^\/runs\/\d+$/.test(location.pathname) ? document.querySelector('.run-head [data-testid="run-progress"]') : null;
        const shown = bar ? `${bar.getAttribute('data-state') ?? ''}:${bar.getAttribute('data-percent') ?? ''}` : '';
        if (shown && progress[progress.length - 1] !== shown) progress.push(shown);
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    // The run the form launches starts once its page shows it queued: every later status then
    // arrives over the socket. (Started at once, a six-item offline run on a loaded machine was
    // done before its page first drew a status.)
    let release = (): void => undefined;
    const shown = new Promise<void>((resolve) => (release = resolve));
    const { executor } = server.server;
    const start = executor.start.bind(executor);
    vi.spyOn(executor, 'start').mockImplementationOnce(async (id) => {
      await shown;
      return start(id);
    });
    // The lowest-id QAs, chosen in the form, reach the run's configuration.
    await runs.startRun({ stage: 'both', chartType, items: 6, order: 'id', proposalBatches: 1, concurrency: 2 });

    await page.waitForURL(/\/runs\/\d+$/);
    const run = new RunPage(page);
    await run.progress.waitFor();
    await expect.poll(() => run.statusText()).toBe('queued');
    release();
    expect(await run.engine.textContent()).toBe(`${OFFLINE_MODEL} (rule-based, no LLM)`);
    expect(await run.offlineNote.textContent()).toContain('No LLM is called');

    await expect.poll(() => run.statusText(), { timeout: RUN_DONE_TIMEOUT_MS, interval: 200 }).toBe('done');
    const statuses = await page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses);
    expect(statuses[0]).toBe('queued');
    expect(statuses.at(-1)).toBe('done');
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

    // The bar never went backwards: no percent while Stage 2 was still to be planned (the total
    // then grows from Stage 1's tasks to all of them), and each percent at least the one before.
    const progress = (await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress)).map((shown) => {
      const [state = '', percent = ''] = shown.split(':');
      return { state, percent: percent === '' ? null : Number(percent) };
    });
    expect(progress.at(-1)).toEqual({ state: 'finished', percent: 100 });
    const firstClaim = progress.findIndex((shown) => shown.state !== 'planning');
    expect(progress.slice(0, firstClaim).every((shown) => shown.percent === null)).toBe(true);
    const claimed = progress.slice(firstClaim).map((shown) => shown.percent ?? -1);
    claimed.forEach((percent, index) => expect(percent, JSON.stringify(progress)).toBeGreaterThanOrEqual(claimed[index - 1] ?? 0));

    // The bar ends full, and agrees with the server's counters.
    const { run: stored } = await api.call(runsApi.get, { params: { id: run.runId() } });
    await expect.poll(() => run.progressValues()).toEqual({
      now: stored.tasks_done + stored.tasks_failed,
      max: stored.tasks_total,
      done: stored.tasks_done,
      failed: stored.tasks_failed,
    });
    expect(stored.tasks_total).toBeGreaterThan(0);
    expect(stored.config.order).toBe('id');
    await page.getByText('Lowest QA ids first').waitFor();
    expect(stored.tasks_done + stored.tasks_failed).toBe(stored.tasks_total);
    expect(stored.items_created).toBeGreaterThan(0);
    expect(stored.items_created).toBeLessThanOrEqual(6);
    expect(await run.figure(run.itemsCreated)).toBe(stored.items_created);
    expect(await run.figure(run.proposalsCreated)).toBe(stored.proposals_created);

    // The watcher saw it arrive and finish.
    await expect.poll(() => watcher.runRow(stored.id).getByTestId('run-status').textContent()).toBe('done');
    expect(await watcher.runRow(stored.id).getByRole('progressbar').getAttribute('aria-valuenow')).toBe(String(stored.tasks_total));

    // The run's items are listed, each an offline item.
    await expect.poll(() => run.itemRows.count()).toBe(stored.items_created);
    expect(await run.itemRows.first().locator('.source-tag').textContent()).toBe('offline');
    await screenshot(page, 'run-page');

    // The Runs list shows it done too; a row opens the run.
    await page.getByRole('link', { name: '‹ Runs' }).click();
    const row = runs.runRow(stored.id);
    await row.waitFor();
    expect(await row.getByTestId('run-status').textContent()).toBe('done');
    await screenshot(page, 'runs-page');

    // And its first item opens with its verifier result.
    await page.goto(`${server.url}/runs/${stored.id}`);
    await run.itemRows.first().click();
    await page.waitForURL(/\/items\/\d+$/);
    await page.getByTestId('verifier').waitFor();
    await screenshot(page, 'item-page');

    // The Items page lists them, filterable by origin.
    await page.goto(`${server.url}/items?origin=offline`);
    await expect.poll(() => page.getByTestId('item-list').locator('tbody tr').count()).toBe(stored.items_created);
    await screenshot(page, 'items-page');
  });

  it('a reviewer sees runs but no start form', async () => {
    const page = await signIn(REVIEWER, null);
    const runs = await new RunsPage(page, server.url).goto();
    await page.getByText('Curators start generation runs').waitFor();
    expect(await runs.form.count()).toBe(0);
  });
});

/** A demo chart with a factual QA, one series and a non-zero number in its first row. */
async function pickChart(client: TestClient): Promise<{ chart: ChartDetail & { data_table: NonNullable<ChartDetail['data_table']> }; qaId: number; qaLabel: string }> {
  const list = await client.call(chartsApi.list, { query: { page_size: 200 } });
  for (const { id, qa_count } of list.charts) {
    if (qa_count === 0) continue;
    const detail = await client.call(chartsApi.get, { params: { id } });
    if (detail.chart.data_table === null) continue;
    const [row] = detail.chart.data_table.rows;
    const [qa] = detail.qas;
    if (detail.chart.data_table.series.length === 1 && row && typeof row.values[0] === 'number' && row.values[0] !== 0 && qa) {
      return { chart: { ...detail.chart, data_table: detail.chart.data_table }, qaId: qa.id, qaLabel: qa.label };
    }
  }
  throw new Error('the demo split has no single-series chart with a question');
}

/** What the shared engine answers for `program` after `edit`: the verifier's own computation. */
function expectedAnswer(table: DataTable, edit: unknown, program: string): string {
  const parsed = parseEdit(edit);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const applied = applyEdit(table, parsed.edit);
  if (!applied.ok) throw new Error(applied.error.message);
  const result = runProgram(applied.table, program);
  if (!result.ok) throw new Error(result.error.message);
  return result.answer;
}

describe('hand-written items on a chart page', () => {
  it('a reviewer writes an item, sees the verifier’s verdict, and opens the stored item', async () => {
    const { chart, qaId } = await pickChart(api);
    const label = chart.data_table.rows[0]?.label ?? '';
    const edit = [{ op: 'scale', row: label, factor: 2 }];
    const program = `value(${JSON.stringify(label)})`;
    const answer = expectedAnswer(chart.data_table, edit, program);

    const page = await signIn(REVIEWER, `/charts/${chart.id}`);
    await new ChartPage(page).waitForLoad();
    const form = new WriteItemForm(page);
    await form.root.waitFor();

    // The shared schema catches an empty question before anything is sent.
    await form.field('Assumption').fill(`Suppose ${label} doubled.`);
    await form.submitWithEnter();
    expect(await form.fieldError('Question')).toBeTruthy();
    expect(await form.result.count()).toBe(0);

    await form.fill({
      qaId,
      assumption: `Suppose the value of ${label} doubled.`,
      question: `Suppose the value of ${label} doubled. What would its value be?`,
      answer,
      rationale: `Doubling ${label} gives ${answer}.`,
      edit: JSON.stringify(edit),
      program,
    });
    await form.submitWithEnter();
    await form.result.waitFor();
    expect(await form.recomputed.textContent()).toBe(answer);
    // A person's answer is gold: compared at its own precision, never with the model's 5 %.
    expect(await form.matchText.textContent()).toBe('matches (at its precision)');
    // No checkbox: the verifier found that doubling the value changes it.
    expect(await form.field('The assumption changes the factual answer').count()).toBe(0);
    expect(await form.affects.textContent()).toMatch(/^The assumption changes the factual answer \(computed by the verifier: the program gives \S+ before the edit and \S+ after\)$/);
    await screenshot(page, 'write-item');

    const linkText = (await form.itemLink.textContent()) ?? '';
    const itemId = Number(/\d+/.exec(linkText)?.[0]);
    const { item } = await api.call(itemsApi.get, { params: { id: itemId } });
    expect(item).toMatchObject({ origin: 'human', qa_id: qaId, answer, verifier_match: true, program });

    await form.itemLink.click();
    await page.waitForURL(new RegExp(`/items/${itemId}$`));
    expect(await page.getByTestId('item-question').textContent()).toBe(item.question);
    expect(await page.getByTestId('recomputed-answer').textContent()).toBe(answer);
  });

  it('an edit the engine rejects is refused on its field, before saving', async () => {
    const { chart } = await pickChart(api);
    const page = await signIn(REVIEWER, `/charts/${chart.id}`);
    const form = new WriteItemForm(page);
    await form.root.waitFor();
    await form.fill({
      assumption: 'Suppose nothing.',
      question: 'Suppose nothing. What then?',
      answer: '1',
      rationale: 'None.',
      edit: '[{"op": "scale", "row": ',
      program: '1',
    });
    await form.submitWithEnter();
    expect(await form.fieldError('Edit (JSON, optional)')).toContain('not valid JSON');
    expect(await form.result.count()).toBe(0);
  });
});
