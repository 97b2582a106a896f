import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fillPath } from '../../shared/api/endpoint';
import { tablesApi } from '../../shared/api/tables';
import { getChartTable } from '../../server/tables/table-queries';
import { saveCuratorTable, unconfirmTable } from '../../server/tables/table-service';
import { CURATOR, IMAGE_ONLY_SPLIT, startImageOnlySplit, type ImageOnlySplit } from '../support/image-only-split';
import { signedIn } from '../support/signed-in-users';
import type { TestServer } from '../support/test-server';
import { openBrowser, UI_TIMEOUT_MS, type BrowserSession } from './browser';
import { signInSession } from './signed-in-browsers';

/** Confirming tables and taking a confirmation back: on a chart's page, and for a MultiChartQA group's charts in one place. */

const OTHER_CURATOR = { username: 'cora', password: 'curator-pass-10' };
const TABLE = { title: null, label_header: 'Year', series: ['Urban'], rows: [{ label: '2000', cells: ['46.7'] }, { label: '2010', cells: ['51.6'] }] };

let setup: ImageOnlySplit | undefined;
let server: TestServer;
let session: BrowserSession | undefined;

beforeAll(async () => {
  setup = await startImageOnlySplit({ users: [{ ...CURATOR, role: 'curator' }, { ...OTHER_CURATOR, role: 'curator' }] });
  ({ server } = setup);
});
afterAll(async () => {
  await setup?.close();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
});

const db = () => server.server.ctx.db;
const auditActions = (chartId: number) =>
  (db().prepare("SELECT action FROM audit_log WHERE target_type = 'chart' AND target_id = ? ORDER BY id").all(String(chartId)) as { action: string }[]).map((row) => row.action);

async function openAsCurator(path: string) {
  session = await openBrowser();
  await signInSession(session, server.url, CURATOR, path);
  return session.page;
}

describe('a confirmed table', () => {
  it('is set back to unconfirmed from the chart page, audited, and another curator’s confirmation shows there live', async () => {
    const chartId = (db().prepare('SELECT id FROM charts WHERE split = ? ORDER BY id LIMIT 1').get(IMAGE_ONLY_SPLIT) as { id: number }).id;
    saveCuratorTable(db(), server.server.ctx.events, chartId, TABLE, null);
    const page = await openAsCurator(`/charts/${chartId}`);
    const state = page.getByTestId('table-state');
    await expect.poll(() => state.textContent(), { timeout: UI_TIMEOUT_MS }).toContain('confirmed');
    // The editor comes before the chart's details, and the original is shown once.
    expect(await page.getByTestId('chart-image').count()).toBe(1);
    const editorTop = await page.getByTestId('table-editor').evaluate((el) => el.getBoundingClientRect().top);
    expect(editorTop).toBeLessThan(await page.locator('dl.meta').evaluate((el) => el.getBoundingClientRect().top));

    await page.getByRole('button', { name: 'Set back to unconfirmed' }).click();
    await expect.poll(() => state.textContent(), { timeout: UI_TIMEOUT_MS }).toContain('not confirmed');
    expect(getChartTable(db(), chartId)).toMatchObject({ table_source: 'curator', table_confirmed: false });
    expect(auditActions(chartId)).toEqual(['chart.table_saved', 'chart.table_unconfirmed']);

    // Another curator confirms it through the API: the open page follows.
    const other = await signedIn(server, OTHER_CURATOR.username, OTHER_CURATOR.password);
    expect((await other.post(fillPath(tablesApi.confirm.path, { id: chartId }))).status).toBe(200);
    await expect.poll(() => state.textContent(), { timeout: UI_TIMEOUT_MS }).toMatch(/; confirmed$/);
    expect(await page.getByRole('button', { name: 'Set back to unconfirmed' }).count()).toBe(1);
  });

  it('lets the original open at full size', async () => {
    const chartId = (db().prepare('SELECT id FROM charts WHERE split = ? ORDER BY id LIMIT 1 OFFSET 1').get(IMAGE_ONLY_SPLIT) as { id: number }).id;
    const page = await openAsCurator(`/charts/${chartId}`);
    const image = page.getByTestId('chart-image');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: UI_TIMEOUT_MS }).toBe(3400);
    expect(await image.evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width)).toBeLessThan(3400);
    await page.getByRole('button', { name: 'Zoom to full size' }).click();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => Math.round(img.getBoundingClientRect().width)), { timeout: UI_TIMEOUT_MS }).toBe(3400);
  });
});

describe('a chart group page', () => {
  it('confirms its charts’ tables in one place by keyboard: confirm, next, edit', async () => {
    const group = db().prepare("SELECT id FROM chart_groups WHERE split = ? ORDER BY id LIMIT 1").get(IMAGE_ONLY_SPLIT) as { id: number };
    const members = (db().prepare('SELECT chart_id FROM chart_group_members WHERE group_id = ? ORDER BY position').all(group.id) as { chart_id: number }[]).map((m) => m.chart_id);
    expect(members.length).toBeGreaterThanOrEqual(2);
    // Each chart has a table no one has confirmed yet.
    for (const id of members) {
      saveCuratorTable(db(), server.server.ctx.events, id, TABLE, null);
      unconfirmTable(db(), server.server.ctx.events, id, null);
    }
    const page = await openAsCurator(`/charts/groups/${group.id}`);
    const confirm = page.getByTestId('group-confirm');
    const position = confirm.getByTestId('group-confirm-position');
    const state = confirm.getByTestId('table-state');
    await expect.poll(() => position.textContent(), { timeout: UI_TIMEOUT_MS }).toMatch(new RegExp(`^Chart 1 of ${members.length}`));
    // Original and redraw side by side.
    await confirm.getByTestId('table-editor-image').waitFor();
    await confirm.getByTestId('table-drawn-chart').waitFor();

    await page.keyboard.press('c');
    await expect.poll(() => state.textContent(), { timeout: UI_TIMEOUT_MS }).toMatch(/; confirmed$/);
    await expect.poll(() => getChartTable(db(), members[0] ?? 0)?.table_confirmed).toBe(true);

    await page.keyboard.press('j');
    await expect.poll(() => position.textContent(), { timeout: UI_TIMEOUT_MS }).toMatch(new RegExp(`^Chart 2 of ${members.length}`));
    await expect.poll(() => state.textContent(), { timeout: UI_TIMEOUT_MS }).toContain('not confirmed');
    await page.keyboard.press('e');
    await confirm.getByRole('button', { name: 'Save and confirm' }).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.keyboard.press('c');
    await expect.poll(() => state.textContent(), { timeout: UI_TIMEOUT_MS }).toMatch(/; confirmed$/);

    await page.keyboard.press('k');
    await expect.poll(() => position.textContent(), { timeout: UI_TIMEOUT_MS }).toMatch(/^Chart 1 of/);
    expect(members.slice(0, 2).map((id) => getChartTable(db(), id)?.table_confirmed)).toEqual([true, true]);
    expect(auditActions(members[1] ?? 0)).toEqual(['chart.table_saved', 'chart.table_unconfirmed', 'chart.table_confirmed']);
    await expect.poll(() => confirm.getByTestId('group-confirm-count').textContent(), { timeout: UI_TIMEOUT_MS }).toBe(
      `2 of ${members.length} tables confirmed`,
    );
  });
});
