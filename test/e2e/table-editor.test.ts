import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { getChartTable } from '../../server/tables/table-queries';
import { jsonReply, type FakeOpenAI } from '../support/fake-openai';
import { CURATOR, EXTRACTED_TABLE as EXTRACTED, IMAGE_ONLY_SPLIT, startImageOnlySplit, type ImageOnlySplit } from '../support/image-only-split';
import type { TestServer } from '../support/test-server';
import { openBrowser, UI_TIMEOUT_MS, type BrowserSession } from './browser';
import { signInSession } from './signed-in-browsers';

/** The table editor on an image-only chart (MultiChartQA): extract, edit in the grid, paste CSV, save and confirm. */

const REVIEWER = { username: 'rik', password: 'reviewer-pass-9' };

let setup: ImageOnlySplit | undefined;
let server: TestServer;
let fake: FakeOpenAI;
let session: BrowserSession | undefined;
let chartId: number;

beforeAll(async () => {
  setup = await startImageOnlySplit({ users: [{ ...CURATOR, role: 'curator' }, { ...REVIEWER, role: 'reviewer' }] });
  ({ server, fake } = setup);
  chartId = (server.server.ctx.db.prepare('SELECT id FROM charts WHERE split = ? ORDER BY id LIMIT 1').get(IMAGE_ONLY_SPLIT) as { id: number }).id;
});
afterAll(async () => {
  await setup?.close();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function openChartAs(user: { username: string; password: string }, id = chartId) {
  session = await openBrowser();
  await signInSession(session, server.url, user, `/charts/${id}`);
  await session.page.getByTestId('table-editor').waitFor();
  return session.page;
}

const drawnText = async (page: NonNullable<BrowserSession>['page']) => {
  const chart = page.getByTestId('table-drawn-chart');
  await expect.poll(() => chart.getAttribute('data-state'), { timeout: UI_TIMEOUT_MS }).toBe('drawn');
  return (await chart.textContent()) ?? '';
};

describe('the table editor', () => {
  it('extracts a table from the image, edits it in the grid and from pasted CSV, redraws it beside the image, and saves it confirmed', async () => {
    const page = await openChartAs(CURATOR);
    const state = page.getByTestId('table-state');
    expect(await state.textContent()).toContain('No table yet.');
    // The original once, beside the drawing of its table.
    expect(await page.getByTestId('chart-image').count()).toBe(1);
    expect(await page.getByTestId('table-editor-image').count()).toBe(0);

    // The 2010 value has no data label on the chart: the model estimated it from the axis.
    fake.script(jsonReply({ ...EXTRACTED, rows: [{ ...EXTRACTED.rows[0], printed: [true] }, { ...EXTRACTED.rows[1], printed: [false] }] }));
    await page.getByRole('button', { name: 'Extract from image' }).click();
    await expect.poll(() => state.textContent(), { timeout: UI_TIMEOUT_MS }).toContain('extracted from the image by a vision model; not confirmed');
    expect(await drawnText(page)).toContain('2010');
    expect(listLlmCalls(server.server.ctx.db).map((c) => c.purpose)).toEqual(['extraction']);

    // The data table names the series as the chart does, its unit small after the name; the estimated value is marked.
    const grid = page.getByTestId('data-table');
    await expect.poll(() => grid.locator('thead th').nth(1).textContent(), { timeout: UI_TIMEOUT_MS }).toBe('Urban (%)');
    expect(await grid.getByTestId('series-unit').textContent()).toBe(' (%)');
    const estimated = grid.locator('td[data-estimated="true"]');
    expect(await estimated.count()).toBe(1);
    expect(await estimated.textContent()).toBe('estimated: 51.6');
    expect(await estimated.getAttribute('title')).toBe('Estimated from the axis, not printed on the chart: check it against the image');
    expect(await estimated.evaluate((cell) => getComputedStyle(cell).textDecorationStyle)).toBe('dotted');

    await page.getByRole('button', { name: 'Edit table' }).click();
    expect(await page.getByLabel('Series 1 unit').inputValue()).toBe('%');
    expect(await page.getByTestId('table-grid').locator('td[data-estimated="true"] input').inputValue()).toBe('51.6');
    await page.getByLabel('2010, Urban').fill('55');
    // Typed over, the value is the curator's, no longer an estimate.
    expect(await page.getByTestId('table-grid').locator('td[data-estimated="true"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByLabel('Row 3 label').fill('2020');
    await page.getByLabel('2020, Urban').fill('56.2');
    await page.getByRole('button', { name: 'Add series' }).click();
    await page.getByLabel('Series 2 name').fill('Rural (%)');
    // An unnamed row cannot be saved: the draft says which field.
    await page.getByRole('button', { name: 'Add row' }).click();
    expect(await page.getByTestId('table-problem').textContent()).toBe('Rows › #4 › label: empty');
    expect(await page.getByRole('button', { name: 'Save and confirm' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Remove row 4' }).click();
    await page.getByRole('button', { name: 'Remove series 2' }).click();
    expect(await drawnText(page)).toContain('2020');

    await page.getByRole('button', { name: 'Paste CSV' }).click();
    await page.getByLabel('CSV or tab-separated, header line first').fill('Year,Urban (%),Rural (%)\n2000,46.7,53.3\n2010,55,45\n2020,56.2,43.8\n');
    await page.getByRole('button', { name: 'Use pasted table' }).click();
    expect(await page.getByLabel('2020, Rural (%)').inputValue()).toBe('43.8');

    await page.getByRole('button', { name: 'Save and confirm' }).click();
    await expect.poll(() => state.textContent(), { timeout: UI_TIMEOUT_MS }).toContain('typed in or corrected by a curator; confirmed');
    expect(getChartTable(server.server.ctx.db, chartId)).toMatchObject({
      table_source: 'curator',
      table_confirmed: true,
      data_table: { label_header: 'Year', series: ['Urban (%)', 'Rural (%)'], rows: [{ label: '2000' }, { label: '2010', values: [55, 45] }, { label: '2020', values: [56.2, 43.8] }] },
    });
    expect(await page.getByRole('button', { name: 'Extract again' }).count()).toBe(0);
  });

  it('edits a series’ unit from the keyboard: Tab reaches it, Escape drops the typing, Enter keeps it without saving, and the save stores and audits it', async () => {
    const page = await openChartAs(CURATOR);
    await page.getByRole('button', { name: 'Edit table' }).click();
    await page.getByLabel('Series 2 name').focus();
    await page.keyboard.press('Tab');
    const unit = page.getByLabel('Series 2 unit');
    expect(await unit.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type('percent');
    await page.keyboard.press('Escape');
    expect(await unit.inputValue()).toBe('');
    await page.keyboard.type('% of people');
    await page.keyboard.press('Enter');
    // Enter committed the unit to the draft; the table is not saved until Save.
    expect(await unit.inputValue()).toBe('% of people');
    expect(await page.getByRole('button', { name: 'Save and confirm' }).count()).toBe(1);
    expect(getChartTable(server.server.ctx.db, chartId)?.data_table?.units).toBeUndefined();

    await page.getByRole('button', { name: 'Save and confirm' }).click();
    const grid = page.getByTestId('data-table');
    await expect.poll(() => grid.locator('thead th').nth(2).textContent(), { timeout: UI_TIMEOUT_MS }).toBe('Rural (%) (% of people)');
    expect(getChartTable(server.server.ctx.db, chartId)?.data_table).toMatchObject({ series: ['Urban (%)', 'Rural (%)'], units: [null, '% of people'] });
    const audit = server.server.ctx.db.prepare("SELECT details FROM audit_log WHERE action = 'chart.table_saved' AND target_id = ? ORDER BY id DESC LIMIT 1").pluck().get(String(chartId)) as string;
    expect(JSON.parse(audit)).toMatchObject({ changed: true, source: 'curator' });
  });

  it('warns where stacked rows miss the totals the chart prints, and confirms the type the model named with the table', async () => {
    const other = (server.server.ctx.db.prepare('SELECT id FROM charts WHERE split = ? AND id > ? ORDER BY id LIMIT 1').get(IMAGE_ONLY_SPLIT, chartId) as { id: number }).id;
    const page = await openChartAs(CURATOR, other);
    // The model read the 2020 bar's top segment as its top edge (a running total): 30 + 95 is not the printed 95.
    fake.script(
      jsonReply({
        orientation: 'vertical',
        stacking: 'stacked',
        chart_type: 'stacked_bar',
        title: 'Sales by channel',
        label_header: 'Year',
        series: [
          { name: 'Online', unit: 'million USD' },
          { name: 'Stores', unit: 'million USD' },
        ],
        rows: [
          { label: '2019', values: [20, 60], printed: [true, true], total: 80 },
          { label: '2020', values: [30, 95], printed: [true, true], total: 95 },
        ],
      }),
    );
    await page.getByRole('button', { name: 'Extract from image' }).click();
    const warning = page.getByTestId('printed-totals-warning');
    await warning.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await warning.textContent()).toContain('"2020" adds up to 125, the chart says 95');
    expect(await warning.textContent()).not.toContain('2019');
    expect(await page.getByTestId('extracted-type-note').textContent()).toContain('read it as a stacked bar chart');
    await expect.poll(() => page.getByTestId('type-unconfirmed').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
    await page.getByRole('button', { name: 'Confirm table and type' }).click();
    await expect.poll(() => page.getByTestId('table-state').textContent(), { timeout: UI_TIMEOUT_MS }).toContain('confirmed');
    await expect.poll(() => page.getByTestId('type-unconfirmed').count(), { timeout: UI_TIMEOUT_MS }).toBe(0);
  });

  it('shows reviewers the table and its state without the editing controls', async () => {
    const page = await openChartAs(REVIEWER);
    await page.getByTestId('table-state').waitFor();
    expect(await page.getByRole('button', { name: /Edit table|Type in a table|Extract|Confirm table/ }).count()).toBe(0);
  });
});
