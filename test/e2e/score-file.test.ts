import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildExport, buildExportItem } from '../support/score-export';
import { CHARTBENCH_SAMPLE, chartBenchPredictions, readChartBenchSample } from '../support/chartbench-sample';
import { startTestServer, type TestServer } from '../support/test-server';
import { UI_TIMEOUT_MS } from './browser';
import { EvaluationPage } from './pages/evaluation-page';
import { ScoreFilePanel } from './pages/score-file-panel';
import { SignedInBrowsers, screenshot } from './signed-in-browsers';

const REVIEWER = { username: 'rev', password: 'reviewer-pass-1' };
let server: TestServer;
let dir: string;
const browsers = new SignedInBrowsers();
const records = readChartBenchSample();

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
  dir = mkdtempSync(join(tmpdir(), 'hqa-e2e-score-file-'));
});
afterEach(() => browsers.closeAll());
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function openPanel(): Promise<ScoreFilePanel> {
  const page = await browsers.signIn(server.url, REVIEWER, null);
  await new EvaluationPage(page, server.url).goto();
  const panel = new ScoreFilePanel(page);
  await panel.panel.waitFor({ timeout: UI_TIMEOUT_MS });
  return panel;
}

describe('scoring a seed benchmark file on the Evaluation page', () => {
  it('a reviewer scores the real ChartBench sample with the keyboard and reads Acc+, Acc, CoR, NQA and the breakdowns', async () => {
    // Every assertion answered "yes"; NQA answers 5.2 % above the gold (right only under the chartbench rule).
    const predictions = write('yes.predictions.json', JSON.stringify(chartBenchPredictions(records, () => 'yes', () => 1.052)));
    const panel = await openPanel();
    await panel.dataset.setInputFiles(CHARTBENCH_SAMPLE);
    await panel.predictions.setInputFiles(predictions);
    // Format and rule by keyboard: focus, pick with the arrow keys, then Tab on to the button and press Enter.
    await panel.format.focus();
    await panel.page.keyboard.press('Home');
    expect(await panel.format.inputValue()).toBe('chart-hqa');
    await panel.page.keyboard.press('ArrowDown');
    expect(await panel.format.inputValue()).toBe('chartbench');
    await panel.rule.focus();
    await panel.page.keyboard.press('End');
    expect(await panel.rule.inputValue()).toBe('chartbench');
    await panel.predictions.focus();
    await panel.page.keyboard.press('Tab');
    expect(await panel.scoreButton.evaluate((button) => button === document.activeElement)).toBe(true);
    await panel.page.keyboard.press('Enter');

    await panel.report.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await panel.report.getByRole('heading', { level: 4 }).first().textContent()).toBe(
      'ChartBench: 480 judgement pairs and 120 NQA questions (NQA under the chartbench rule)',
    );
    expect(await panel.figure('Acc+')).toBe('0.00 %');
    expect(await panel.figure('Acc')).toBe('50.00 %');
    expect(await panel.figure('CoR')).toBe('100.00 %');
    expect(await panel.figure('NQA (chartbench)')).toBe('100.00 %');
    const byTask = panel.report.getByRole('table', { name: 'By task', exact: true });
    expect(await byTask.getByRole('row', { name: /^CR / }).getByRole('cell').allTextContents()).toEqual(['120', '0', '50', '100', '0', '—']);
    expect(await panel.report.getByRole('table', { name: /Annotated vs unannotated/ }).getByRole('row', { name: /^annotated / }).getByRole('cell').first().textContent()).toBe('80');
    await screenshot(panel.page, 'score-file-chartbench');
  });

  it('a Chart-HQA export is scored with its baseline: accuracy, bias and decline rates as hqa score gives them', async () => {
    const items = [
      buildExportItem('chq-000001', '40', 'integer', '20'),
      buildExportItem('chq-000002', '12', 'integer', '12', false),
      buildExportItem('chq-000003', 'Yes', 'boolean', 'No'),
      buildExportItem('chq-000004', 'Japan', 'text', 'China'),
    ];
    const dataset = write('export.json', JSON.stringify(buildExport(items)));
    // Right on 1 and 2; item 3 answered with the original label (biased); 4 wrong.
    const predictions = write('p.json', JSON.stringify(['40', '12', 'No', 'Korea'].map((prediction, i) => ({ id: items[i]?.id, prediction }))));
    // The factual questions: all four right, so the decline rate is |100 − 50| / 100.
    const baseline = write('base.json', JSON.stringify(['20', '12', 'No', 'China'].map((prediction, i) => ({ id: items[i]?.id, prediction }))));
    const panel = await openPanel();
    await panel.format.selectOption('chart-hqa');
    await panel.dataset.setInputFiles(dataset);
    await panel.predictions.setInputFiles(predictions);
    await panel.panel.getByLabel(/^Baseline predictions/).setInputFiles(baseline);
    await panel.scoreButton.click();
    await panel.report.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await panel.figure('Relaxed accuracy')).toBe('50.00 %');
    expect(await panel.figure('Bias rate')).toBe('33.33 %'); // 1 of the 3 items whose answer changed
    expect(await panel.figure('Baseline accuracy (factual questions)')).toBe('100.00 %');
    expect(await panel.figure('Decline rate')).toBe('50.00 %');
  });

  it('a bad record is named under the dataset field: file, line and field', async () => {
    const lines = readFileSync(CHARTBENCH_SAMPLE, 'utf8').split('\n');
    const bad = lines.map((line, i) => (i === 11 ? line.replace('"label": "No"', '"label": "Nope"') : line)).join('\n');
    const dataset = write('test_mini.jsonl', bad);
    const predictions = write('none.json', '[]');
    const panel = await openPanel();
    await panel.dataset.setInputFiles(dataset);
    await panel.predictions.setInputFiles(predictions);
    await panel.scoreButton.click();
    await panel.panel.getByRole('alert').first().waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await panel.errorOf(panel.dataset)).toBe('test_mini.jsonl: line 12: conversation[1].label: expected Yes or No');
    expect(await panel.dataset.getAttribute('aria-invalid')).toBe('true');
    expect(await panel.report.count()).toBe(0);
  });
});
