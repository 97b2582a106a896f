import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScoreReportSchema } from '../../shared/eval/score-report';
import { ErrorBodySchema } from '../../shared/errors';
import { evalApi } from '../../shared/api/evaluations';
import { CHARTBENCH_SAMPLE, chartBenchPredictions, readChartBenchSample } from '../support/chartbench-sample';
import { TestClient } from '../support/http-client';
import { SignedInUsers } from '../support/signed-in-users';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let reviewer: TestClient;
const path = evalApi.scoreFile.path;
const records = readChartBenchSample();
const dataset = { name: 'test_mini.jsonl', text: readFileSync(CHARTBENCH_SAMPLE, 'utf8') };

beforeAll(async () => {
  server = await startTestServer();
  reviewer = (await new SignedInUsers(server).create('reviewer')).client;
});
afterAll(() => server.close());

describe('POST /api/eval/score-file', () => {
  it('scores the real ChartBench sample for a reviewer, under the rule asked for, with a body past the small JSON limit', async () => {
    // 5.2 % above the gold: wrong under chartqa, right under chartbench (4.94 % of the prediction).
    const rows = chartBenchPredictions(records, () => 'right', () => 1.052).map((row) => ({ ...row, raw: `Reading the chart.\nAnswer: ${row.prediction}` }));
    const predictions = { name: 'preds.json', text: JSON.stringify(rows) };
    expect(dataset.text.length + predictions.text.length).toBeGreaterThan(256 * 1024);
    const res = await reviewer.post(path, { format: 'chartbench', rule: 'chartbench', dataset, predictions });
    expect(res.status).toBe(200);
    const report = ScoreReportSchema.parse(res.body);
    expect(report.figures.map((f) => f.label).slice(0, 4)).toEqual(['Acc+', 'Acc', 'CoR', 'NQA (chartbench)']);
    expect(report.figures[0]?.value).toBe(100);
    expect(report.figures[3]?.value).toBe(100);
    expect(report.figures.find((f) => f.label === 'NQA (chartqa)')?.value).toBeLessThan(5);
  });

  it('answers 400 naming the file, line and field of a bad record', async () => {
    const lines = dataset.text.split('\n');
    const bad = lines.map((line, i) => (i === 11 ? line.replace('"label": "No"', '"label": "Nope"') : line)).join('\n');
    const res = await reviewer.post(path, { format: 'chartbench', dataset: { name: 'test_mini.jsonl', text: bad }, predictions: { name: 'p.json', text: '[]' } });
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(res.body).error.message).toBe('test_mini.jsonl: line 12: conversation[1].label: expected Yes or No');
  });

  it('answers 400 naming the body field of a bad request, and 401 to no one signed in', async () => {
    const res = await reviewer.post(path, { format: 'chartqa', dataset, predictions: { name: 'p.json', text: '[]' } });
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(res.body).error.field).toBe('body.format');
    const anonymous = await new TestClient(server.url).post(path, { format: 'chartbench', dataset, predictions: { name: 'p.json', text: '[]' } });
    expect(anonymous.status).toBe(401);
  });
});
