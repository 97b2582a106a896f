import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chartGroupsApi } from '../../shared/api/chart-groups';
import { chartsApi } from '../../shared/api/charts';
import { DEMO_GROUP_NAME } from '../../server/demo/demo-extras';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { ChartGroupPage, NewGroupForm } from './pages/chart-groups-page';
import { ChartsPage } from './pages/charts-page';
import { signInSession } from './signed-in-browsers';

const CURATOR = { username: 'cora', password: 'curator-pass-1' };

let server: TestServer;
let session: BrowserSession | undefined;

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('chart groups in the browser', () => {
  it('a curator checks two charts, creates a group with the keyboard, adds a question and sees it on the group page', async () => {
    session = await openBrowser();
    const { page } = session;
    await signInSession(session, server.url, CURATOR, null);
    const charts = await new ChartsPage(page, server.url).goto('?split=demo');
    const [first, second] = await charts.imgnames();
    if (!first || !second) throw new Error('the demo split has fewer than two charts on its first page');

    // Keyboard only: focus a row's box, Space checks it; Tab on to the next fields; Enter submits.
    const form = new NewGroupForm(page);
    await form.checkbox(first).focus();
    await page.keyboard.press('Space');
    await form.checkbox(second).focus();
    await page.keyboard.press('Space');
    await expect.poll(() => form.charts.allTextContents()).toEqual([expect.stringContaining(first), expect.stringContaining(second)]);
    await form.name.focus();
    await page.keyboard.type('Two demo charts');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/charts\/groups\/\d+$/);

    const group = new ChartGroupPage(page);
    await expect.poll(() => group.heading.textContent()).toBe('Two demo charts');
    expect(await group.charts.count()).toBe(2);
    await expect.poll(() => group.charts.allTextContents()).toEqual([expect.stringMatching(/^1\. /), expect.stringMatching(/^2\. /)]);

    await group.query.focus();
    await page.keyboard.type('What is the total of the first value in the first chart and the second chart?');
    await page.keyboard.press('Tab');
    await page.keyboard.type('42');
    await page.keyboard.press('Enter');
    await expect.poll(() => group.questions.allTextContents()).toEqual([expect.stringContaining('What is the total of the first value')]);
    await expect.poll(() => group.query.inputValue()).toBe('');

    // What the page shows is what is stored: the group, in the order checked, with its question.
    const api = new TestClient(server.url);
    await api.login(CURATOR.username, CURATOR.password);
    const id = Number(/\/charts\/groups\/(\d+)$/.exec(page.url())?.[1]);
    const detail = await api.call(chartGroupsApi.get, { params: { id } });
    expect(detail.group).toMatchObject({ name: 'Two demo charts', source: 'curator', question_count: 1 });
    expect(detail.charts.map((c) => c.imgname)).toEqual([first, second]);
    expect(detail.questions[0]).toMatchObject({ label: '42', answer_kind: 'number' });
  });

  it('the demo group and the chart without a table are there on first start', async () => {
    session = await openBrowser();
    const { page } = session;
    await signInSession(session, server.url, CURATOR, null);
    const api = new TestClient(server.url);
    await api.login(CURATOR.username, CURATOR.password);
    const demo = (await api.call(chartGroupsApi.list, { query: { split: 'demo', source: 'curator' } })).groups.find((g) => g.name === DEMO_GROUP_NAME);
    if (!demo) throw new Error(`no "${DEMO_GROUP_NAME}" group`);
    await page.goto(`${server.url}/charts/groups/${demo.id}`);
    const group = new ChartGroupPage(page);
    await expect.poll(() => group.heading.textContent()).toBe(DEMO_GROUP_NAME);
    await expect.poll(() => group.questions.count()).toBe(4);
    expect(await page.getByTestId('group-chart').getByTestId('data-table').count()).toBe(2);

    const imageOnly = (await api.call(chartsApi.list, { query: { split: 'demo', q: 'image_only', page_size: 5 } })).charts;
    expect(imageOnly.map((c) => [c.table_source, c.has_image, c.qa_count])).toEqual([[null, true, 1]]);
    await page.goto(`${server.url}/charts/${imageOnly[0]?.id}`);
    await page.getByTestId('no-table').waitFor();
    await page.getByTestId('chart-image').waitFor();
  });
});
