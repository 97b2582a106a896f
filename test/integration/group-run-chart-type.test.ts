import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsApi } from '../../shared/api/items';
import { runsApi } from '../../shared/api/runs';
import type { ChartType } from '../../shared/domain/chart-types';
import { tableFromCells } from '../../shared/table/model';
import { buildChart, buildChartGroup, buildQa, setTablesConfirmed } from '../support/factories';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * A run's chart type takes a question over a chart group when any of its charts is of that type,
 * not only its first (where the question is stored), and pairs it with a group proposal of that
 * type: the assumption edits the chart the run is for.
 */

let server: TestServer;
let curator: TestClient;
const db = () => server.server.ctx.db;
const SPLIT = 'grp-type';
let groupQa: number;
let lineQa: number;
let barQa: number;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  // Chart 1, where the group's question is stored, is a line; chart 2 is bars.
  const charts = [
    buildChart(db(), { split: SPLIT, chartType: 'line', title: 'Sales, $m', table: tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12'], ['2021', '15']]) }),
    buildChart(db(), { split: SPLIT, chartType: 'vertical_bar', title: 'Costs, $m', table: tableFromCells(['Year', 'Costs'], [['2019', '8'], ['2020', '13'], ['2021', '9']]) }),
  ];
  setTablesConfirmed(db(), charts);
  const groupId = buildChartGroup(db(), { chartIds: charts, split: SPLIT });
  groupQa = buildQa(db(), { chartId: charts[0] as number, groupId, query: 'Is Sales in the first chart higher than Costs in the second chart in 2019?', label: 'Yes' });
  lineQa = buildQa(db(), { chartId: charts[0] as number, query: 'What is the value of 2020?', label: '12' });
  barQa = buildQa(db(), { chartId: charts[1] as number, query: 'What is the value of 2021?', label: '9' });
});
afterAll(async () => {
  await server.close();
});

async function runFor(chartType: ChartType, order: 'id' | 'stratified') {
  // Every run may take a question an earlier one wrote an item for.
  const { run } = await curator.call(runsApi.create, { body: { engine: 'offline', stage: 'items', split: SPLIT, chart_type: chartType, items: 10, order, only_new_qas: false, concurrency: 1 } });
  await server.server.executor.start(run.id);
  return await curator.call(runsApi.get, { params: { id: run.id } });
}

const tasksOf = (runId: number) =>
  db().prepare('SELECT t.qa_id, t.chart_type, p.scope, p.chart_type AS proposal_type FROM run_tasks t JOIN proposals p ON p.id = t.proposal_id WHERE t.run_id = ? ORDER BY t.qa_id').all(runId) as {
    qa_id: number;
    chart_type: ChartType;
    scope: string;
    proposal_type: ChartType;
  }[];

describe('a run for one chart type', () => {
  it('takes a group question by its second chart\'s type, with a group proposal of that type, and writes an item editing that chart', async () => {
    const { run, errors } = await runFor('vertical_bar', 'stratified');
    expect(tasksOf(run.id)).toEqual([
      { qa_id: groupQa, chart_type: 'vertical_bar', scope: 'group', proposal_type: 'vertical_bar' },
      { qa_id: barQa, chart_type: 'vertical_bar', scope: 'chart', proposal_type: 'vertical_bar' },
    ]);
    expect(run, JSON.stringify(errors)).toMatchObject({ status: 'done', items_created: 2 });
    const items = (await curator.call(itemsApi.list, { query: { run_id: run.id } })).items;
    const item = items.find((candidate) => candidate.qa_id === groupQa);
    const detail = (await curator.call(itemsApi.get, { params: { id: item?.id ?? 0 } })).item;
    expect((detail.edit as { chart: number }[]).map((op) => op.chart)).toEqual((detail.edit as unknown[]).map(() => 2));
  });

  it('takes it by its first chart\'s type too (lowest ids), and leaves it out for a type no chart of it has', async () => {
    const line = await runFor('line', 'id');
    expect(tasksOf(line.run.id).map((t) => [t.qa_id, t.scope, t.proposal_type])).toEqual([
      [groupQa, 'group', 'line'],
      [lineQa, 'chart', 'line'],
    ]);
    const pie = await runFor('pie', 'id');
    expect(pie.run.tasks_total).toBe(0);
  });
});
