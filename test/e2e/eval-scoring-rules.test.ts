import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evalApi } from '../../shared/api/evaluations';
import { ChartHqaExportV1Schema } from '../../shared/export/chart-hqa';
import { TestClient } from '../support/http-client';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { EvalRunPage } from './pages/evaluation-page';
import { SignedInBrowsers } from './signed-in-browsers';
import { exportApi } from '../../shared/api/export';
import { setItemStatus } from '../support/factories';

/**
 * An evaluation run's relaxed accuracy under each scoring rule reaches the API and the run's
 * page. The predictions are built so each rule's count is known by construction: a number 4.8%
 * below the gold is right only where the gold divides (chartqa: 4.8%; 4.8 / 95.2 = 5.04%
 * elsewhere), one 5.1% above only where the prediction divides (5.1 / 105.1 = 4.85%), a Yes/No
 * given as the gold is right except under ChartBench (which strips the reply to "Y" / "N").
 */

const CURATOR = { username: 'cora', password: 'curator-pass-1' };
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

let server: TestServer;
let api: TestClient;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  server = await startTestServer();
  const run = await generateItems(server, 12);
  setItemStatus(server.server.ctx.db, 'accepted', { runId: run });
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  api = new TestClient(server.url);
  await api.login(CURATOR.username, CURATOR.password);
});

afterEach(() => browsers.closeAll());
afterAll(async () => {
  await server?.close();
});

const pct = (part: number, whole: number) => `${(Math.round((part / whole) * 10000) / 100).toFixed(2)}%`;

describe('a run under every scoring rule', () => {
  it('the run detail and the run page give the relaxed accuracy under chartqa, qwen-vl and chartbench', async () => {
    const items = ChartHqaExportV1Schema.parse((await api.send(exportApi.download, { body: { format: 'chart-hqa' } })).body).items;
    let below = 0;
    let above = 0;
    let yesNo = 0;
    const predictions = items.map((item) => {
      if (PLAIN_NUMBER.test(item.answer) && Number(item.answer) !== 0) {
        // Two below for each above, so the chartqa and qwen-vl counts differ however many numbers there are.
        const under = (below + above) % 3 !== 2;
        if (under) below += 1;
        else above += 1;
        return { id: item.id, prediction: String(Number(item.answer) * (under ? 0.952 : 1.051)), raw: '' };
      }
      if (item.answer === 'Yes' || item.answer === 'No') {
        yesNo += 1;
        return { id: item.id, prediction: item.answer, raw: '' };
      }
      return { id: item.id, prediction: 'surely-not-the-answer', raw: '' };
    });
    expect(below + above, 'the generated items hold numeric answers').toBeGreaterThanOrEqual(2);
    const expected = { chartqa: below + yesNo, 'qwen-vl': above + yesNo, chartbench: above };
    expect(new Set(Object.values(expected)).size, 'the rules give different figures here').toBeGreaterThan(1);

    const { run } = await api.call(evalApi.import, { body: { model: 'rules-7b', mode: 'hqa', predictions } });

    const detail = await api.call(evalApi.get, { params: { id: run.id } });
    expect(detail.rules.map((entry) => [entry.rule, entry.items, entry.correct])).toEqual([
      ['chartqa', items.length, expected.chartqa],
      ['qwen-vl', items.length, expected['qwen-vl']],
      ['chartbench', items.length, expected.chartbench],
    ]);
    // The reference rule's figure is the run's own score.
    expect(detail.rules[0]?.accuracy).toBe(detail.run.score.relaxed_accuracy);

    const page = await browsers.signIn(server.url, CURATOR, null);
    await page.goto(`${server.url}/evaluation/runs/${run.id}`);
    await new EvalRunPage(page).waitForLoad();
    const table = page.getByTestId('eval-rule-scores');
    for (const rule of ['chartqa', 'qwen-vl', 'chartbench'] as const) {
      const row = table.locator(`tr[data-rule="${rule}"]`);
      await expect.poll(() => row.getByTestId('rule-accuracy').textContent()).toBe(pct(expected[rule], items.length));
      expect(await row.locator('td').nth(1).textContent()).toBe(`${expected[rule]} / ${items.length}`);
    }
    expect(await table.locator('tr[data-rule="chartqa"] th').textContent()).toContain('(reference)');
  });
});
