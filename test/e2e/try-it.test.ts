import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ChartDetail, chartsApi } from '../../shared/api/charts';
import { classifyAnswer } from '../../shared/table/answers';
import { parseCellValue } from '../../shared/table/cell';
import { PERCENT_SUM_TOLERANCE } from '../../shared/table/lint';
import type { DataTable } from '../../shared/table/model';
import { runProgram } from '../../shared/table/program';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { ChartPage } from './pages/chart-page';
import { TryItPanel } from './pages/try-it-panel';
import { signInSession } from './signed-in-browsers';

const REVIEWER = { username: 'rita', password: 'reviewer-pass-2' };

/** Set to a file path to save a screenshot of the panel at work (e.g. /tmp/tryit.png) for a human look. */
const SCREENSHOT_PATH = process.env.HQA_E2E_TRYIT_SCREENSHOT;

let server: TestServer;
let session: BrowserSession | undefined;
/** A single-series, non-pie demo chart whose first row holds a non-zero number and no cell is missing. */
let barChart: ChartDetail & { data_table: DataTable };
/** A pie demo chart whose first series sums to ~100, with at least two slices. */
let pieChart: ChartDetail & { data_table: DataTable };

/** The demo charts' details, fetched from the API as the reviewer, as the page fetches them. */
/** The charts with a data table (the demo's all have one). */
async function fetchDetails(client: TestClient): Promise<(ChartDetail & { data_table: DataTable })[]> {
  const list = await client.call(chartsApi.list, { query: { page_size: 200 } });
  const details: (ChartDetail & { data_table: DataTable })[] = [];
  for (const { id } of list.charts) {
    const chart = (await client.call(chartsApi.get, { params: { id } })).chart;
    if (chart.data_table !== null) details.push({ ...chart, data_table: chart.data_table });
  }
  return details;
}

function firstSeries(table: DataTable): number[] {
  return table.rows.map((row) => row.values[0] ?? Number.NaN);
}

const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);

/** The first label holding the largest value: argmax's tie rule. */
function argmaxLabel(table: DataTable): string {
  const values = firstSeries(table);
  return table.rows[values.indexOf(Math.max(...values))]?.label ?? '';
}

/** A label as a program string literal. */
const quoted = (label: string) => `"${label.replace(/[\\"]/g, '\\$&')}"`;

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
  const client = new TestClient(server.url);
  await client.login(REVIEWER.username, REVIEWER.password);
  const details = await fetchDetails(client);

  const bar = details.find(
    (chart) =>
      chart.chart_type !== 'pie' &&
      chart.data_table.series.length === 1 &&
      chart.data_table.rows.length >= 2 &&
      firstSeries(chart.data_table).every((v) => Number.isFinite(v)) &&
      firstSeries(chart.data_table)[0] !== 0,
  );
  const pie = details.find(
    (chart) =>
      chart.chart_type === 'pie' &&
      chart.data_table.rows.length >= 2 &&
      Math.abs(sum(firstSeries(chart.data_table)) - 100) <= PERCENT_SUM_TOLERANCE,
  );
  if (!bar || !pie) throw new Error('the demo split has no single-series bar chart or no pie chart summing to 100');
  barChart = bar;
  pieChart = pie;
});

afterAll(async () => {
  await server?.close();
});

afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function openChart(chart: ChartDetail): Promise<TryItPanel> {
  session = await openBrowser();
  const { page } = session;
  await signInSession(session, server.url, REVIEWER, `/charts/${chart.id}`);
  await new ChartPage(page).waitForLoad();
  const panel = new TryItPanel(page);
  await panel.waitForLoad();
  return panel;
}

describe('the Try it panel on a chart page', () => {
  it('a reviewer types a program, then an edit: the answer follows the edited table and the changed cell is highlighted', async () => {
    const table = barChart.data_table;
    const [first] = table.rows;
    const v0 = first?.values[0];
    if (!first || typeof v0 !== 'number') throw new Error('the chosen chart lost its first value');
    const panel = await openChart(barChart);

    // A clickable example built from the chart's own labels.
    await panel.example('Program examples', 'argmax(series())').click();
    await expect.poll(() => panel.answerText()).toBe(argmaxLabel(table));
    expect(await panel.answerType.textContent()).toBe('text');

    await panel.typeProgram('sum(series())');
    const expectedSum = sum(firstSeries(table));
    await expect.poll(async () => Number(await panel.answerText())).toBeCloseTo(expectedSum, 3);
    const answer = (await panel.answerText()) ?? '';
    expect(await panel.answerType.textContent()).toBe(classifyAnswer(answer));

    await panel.typeEdit(JSON.stringify([{ op: 'scale', row: first.label, factor: 2 }]));
    await expect.poll(async () => Number(await panel.answerText())).toBeCloseTo(expectedSum + v0, 3);
    const changed = await panel.changedCells();
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ row: first.label, series: table.series[0], before: first.raw[0] });
    expect(parseCellValue(changed[0]?.after ?? '')).toBeCloseTo(2 * v0, 6);
    expect(await panel.root.getByTestId('tryit-edit-summary').textContent()).toBe('1 cell changed');

    if (SCREENSHOT_PATH) await panel.page.screenshot({ path: SCREENSHOT_PATH, fullPage: true });
  });

  it('a bad program shows its error with the position marked under the program text', async () => {
    const [first] = barChart.data_table.rows;
    const panel = await openChart(barChart);
    const program = `value(${quoted(first?.label ?? '')}) % 2`;
    const position = program.indexOf('%');
    // The engine itself puts the error there; the panel must show the engine's position.
    const expected = runProgram(barChart.data_table, program);
    expect(expected.ok ? null : expected.error.position).toBe(position);

    await panel.typeProgram(program);
    // Typed key by key, the panel may first show the error of a prefix ("va"): wait for the whole program's.
    await expect.poll(() => panel.programError.textContent()).toContain(expected.ok ? '' : expected.error.message);
    expect(await panel.errorPosition.textContent()).toContain(`line 1, column ${position + 1}`);
    expect(await panel.caretSource.textContent()).toBe(program);
    expect(await panel.caretMarker.textContent()).toBe(`${' '.repeat(position)}^`);
    expect(await panel.answer.count()).toBe(0);
  });

  it('renders typed text as text, and Esc in a field leaves the field instead of the page', async () => {
    const panel = await openChart(barChart);
    const { page } = panel;
    await panel.typeProgram('"<b>bold</b>"');
    await expect.poll(() => panel.answerText()).toBe('<b>bold</b>');
    expect(await panel.answer.locator('b').count()).toBe(0);

    const chartUrl = page.url();
    await panel.programField.focus();
    await page.keyboard.press('Escape');
    expect(page.url()).toBe(chartUrl);
    expect(await panel.programField.evaluate((node) => node === document.activeElement)).toBe(false);
    expect(await panel.programField.inputValue()).toBe('"<b>bold</b>"');

    // Outside the fields, Esc is the page's shortcut again.
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/charts$/);
  });

  it('an edit that breaks a pie chart’s 100% sum shows the pie_sum finding; a swap keeps it clean', async () => {
    const [first, ...rest] = pieChart.data_table.rows;
    // Swapping two equal slices would change nothing, which the lint reports as no_change.
    const second = rest.find((row) => row.values[0] !== first?.values[0]);
    const panel = await openChart(pieChart);
    await expect.poll(() => panel.root.getByRole('heading', { name: /Layout lint/ }).textContent()).toContain('Pie');

    await panel.typeEdit(JSON.stringify([{ op: 'add', row: first?.label, delta: 25 }]));
    await expect.poll(async () => (await panel.findings()).map((finding) => finding.code)).toContain('pie_sum');
    const finding = (await panel.findings()).find((f) => f.code === 'pie_sum');
    expect(finding?.severity).toBe('error');
    expect(finding?.message).toMatch(/instead of 100/);

    await panel.typeEdit(JSON.stringify([{ op: 'swap', rows: [first?.label, second?.label] }]));
    await panel.root.getByTestId('tryit-lint-clean').waitFor();
    expect(await panel.findings()).toEqual([]);
  });
});
