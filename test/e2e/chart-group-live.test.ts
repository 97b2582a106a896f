import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chartGroupsApi } from '../../shared/api/chart-groups';
import { tableFromCells } from '../../shared/table/model';
import { buildChart } from '../support/factories';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { ChartGroupPage } from './pages/chart-groups-page';
import { ChartPage } from './pages/chart-page';
import { signInSession } from './signed-in-browsers';

/**
 * Another curator's group writes reach an open page without a reload (`chart_group.changed` →
 * the socket's cache handler): a member chart's page links the new group, follows its rename and
 * reorder and drops it when deleted; the Groups list shows it and its question count.
 */

const WATCHER = { username: 'cleo', password: 'curator-pass-2' };

let server: TestServer;
let session: BrowserSession;
let writer: TestClient;
const charts: number[] = [];
/** The nth chart made for these tests (0, which no chart has, when there is none). */
const chartAt = (n: number) => charts[n] ?? 0;

/** The open page's view of groups: a chart's "Groups" links, and the Groups list's rows. */
class GroupViews {
  constructor(readonly page: Page) {}
  links = () => this.page.getByTestId('chart-groups');
  async linksText(): Promise<string | null> {
    return (await this.links().count()) === 0 ? null : ((await this.links().textContent()) ?? '').replace(/\s+/g, ' ').trim();
  }
  /** Each row of the Groups list as its cells' text. */
  async listRows(): Promise<string[][]> {
    const rows = await this.page.getByTestId('chart-group-list').locator('tbody tr').all();
    return Promise.all(rows.map(async (row) => (await row.locator('td').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim())));
  }
}

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser(WATCHER.username, 'curator', WATCHER.password);
  const db = server.server.ctx.db;
  const table = tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12']]);
  charts.push(buildChart(db, { split: 'live', imgname: 'first.png', table }), buildChart(db, { split: 'live', imgname: 'second.png', table }));
  writer = new TestClient(server.url);
  await writer.login('cora', 'curator-pass-1');
  session = await openBrowser();
  // On no page yet: each test opens its own.
  await signInSession(session, server.url, WATCHER, null);
});
afterAll(async () => {
  await session?.close();
  await server?.close();
});

describe('chart groups, live', () => {
  it('a chart page links a group another curator creates, renames, reorders and deletes, without a reload', async () => {
    const { page } = session;
    const views = new GroupViews(page);
    await page.goto(`${server.url}/charts/${charts[0]}`);
    await new ChartPage(page).waitForLoad();
    expect(await views.linksText()).toBeNull();

    const { group } = await writer.call(chartGroupsApi.create, { body: { name: 'Live pair', chart_ids: [chartAt(0), chartAt(1)] } });
    await expect.poll(() => views.linksText()).toBe('Live pair (chart 1 of 2)');

    expect((await writer.send(chartGroupsApi.update, { params: { id: group.id }, body: { name: 'Live pair, renamed' } })).status).toBe(200);
    await expect.poll(() => views.linksText()).toBe('Live pair, renamed (chart 1 of 2)');
    expect((await writer.send(chartGroupsApi.update, { params: { id: group.id }, body: { chart_ids: [charts[1], charts[0]] } })).status).toBe(200);
    await expect.poll(() => views.linksText()).toBe('Live pair, renamed (chart 2 of 2)');

    expect((await writer.send(chartGroupsApi.remove, { params: { id: group.id } })).status).toBe(200);
    await expect.poll(() => views.linksText()).toBeNull();
  });

  it('the Groups list shows a group another curator creates and its questions as they are added', async () => {
    const { page } = session;
    const views = new GroupViews(page);
    await page.goto(`${server.url}/charts/groups`);
    await page.getByText('No chart groups yet.').waitFor();

    const { group } = await writer.call(chartGroupsApi.create, { body: { name: 'Listed live', chart_ids: [chartAt(1), chartAt(0)] } });
    await expect.poll(() => views.listRows()).toEqual([['Listed live', 'live', 'curator', '1. second.png 2. first.png', '0', '0']]);
    expect((await writer.send(chartGroupsApi.addQuestion, { params: { id: group.id }, body: { query: 'What is the total of Sales in 2020?', label: '24' } })).status).toBe(201);
    await expect.poll(() => views.listRows()).toEqual([['Listed live', 'live', 'curator', '1. second.png 2. first.png', '1', '0']]);
  });

  it('a group\'s page shows the name and questions another curator gives it', async () => {
    const { page } = session;
    const { group } = await writer.call(chartGroupsApi.create, { body: { name: 'Open page', chart_ids: [chartAt(0), chartAt(1)] } });
    await page.goto(`${server.url}/charts/groups/${group.id}`);
    const view = new ChartGroupPage(page);
    await expect.poll(() => view.heading.textContent()).toBe('Open page');
    expect(await view.questions.count()).toBe(0);

    expect((await writer.send(chartGroupsApi.update, { params: { id: group.id }, body: { name: 'Open page, renamed' } })).status).toBe(200);
    await expect.poll(() => view.heading.textContent()).toBe('Open page, renamed');
    expect((await writer.send(chartGroupsApi.addQuestion, { params: { id: group.id }, body: { query: 'Which chart has the larger 2019 value?', label: 'Neither' } })).status).toBe(201);
    await expect.poll(() => view.questions.allTextContents()).toEqual([expect.stringContaining('Which chart has the larger 2019 value?')]);
  });
});
