import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ItemDetailResponseSchema, ItemListResponseSchema } from '../../shared/api/items';
import { ProposalListResponseSchema } from '../../shared/api/pool';
import { RunDetailResponseSchema, RunResponseSchema } from '../../shared/api/runs';
import type { ChartType } from '../../shared/domain/chart-types';
import { tableFromCells } from '../../shared/table/model';
import { insertProposal } from '../../server/pool/pool-queries';
import { buildChart, buildChartGroup, buildQa } from '../support/factories';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let curator: TestClient;
const db = () => server.server.ctx.db;

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser('cora', 'curator', 'curator-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
});
afterAll(async () => {
  await server.close();
});

/** Sales as a line (chart 1) and costs as bars (chart 2), by year: a group a curator made, its tables confirmed. */
function salesAndCosts(split: string): { groupId: number; charts: number[] } {
  const charts = [
    buildChart(db(), { split, chartType: 'line', title: 'Sales, $m', table: tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12'], ['2021', '15']]) }),
    buildChart(db(), { split, chartType: 'vertical_bar', title: 'Costs, $m', table: tableFromCells(['Year', 'Costs'], [['2019', '4'], ['2020', '13'], ['2021', '9']]) }),
  ];
  db().prepare(`UPDATE charts SET table_confirmed = 1 WHERE id IN (${charts.join(',')})`).run();
  return { groupId: buildChartGroup(db(), { chartIds: charts, split }), charts };
}

async function runItems(split: string) {
  const res = await curator.post('/api/runs', { engine: 'offline', stage: 'items', split, items: 10 });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const { run } = RunResponseSchema.parse(res.body);
  await server.server.executor.start(run.id);
  return RunDetailResponseSchema.parse((await curator.get(`/api/runs/${run.id}`)).body);
}

const taskPairs = (runId: number) =>
  db().prepare('SELECT t.qa_id, t.chart_type, p.scope, p.chart_type AS proposal_type FROM run_tasks t JOIN proposals p ON p.id = t.proposal_id WHERE t.run_id = ? ORDER BY t.id').all(runId) as {
    qa_id: number;
    chart_type: ChartType;
    scope: string;
    proposal_type: ChartType;
  }[];

describe('an offline run over a chart group', () => {
  it('pairs the group question with a group proposal and writes a verified item that edits one chart', async () => {
    const { groupId, charts } = salesAndCosts('grp-offline');
    const groupQa = buildQa(db(), { chartId: charts[0] as number, groupId, query: 'Is Sales in the first chart higher than Costs in the second chart in 2019?', label: 'Yes' });
    const singleQa = buildQa(db(), { chartId: charts[1] as number, query: 'What is the value of 2019?', label: '4' });

    const { run, errors } = await runItems('grp-offline');
    expect(run.status).toBe('done');
    const pairs = taskPairs(run.id);
    // Each question drew from its own kind of proposal; the group's from a type one of its charts has.
    expect(pairs.find((pair) => pair.qa_id === groupQa)).toMatchObject({ scope: 'group' });
    expect(['line', 'vertical_bar']).toContain(pairs.find((pair) => pair.qa_id === groupQa)?.proposal_type);
    expect(pairs.find((pair) => pair.qa_id === singleQa)).toMatchObject({ scope: 'chart', proposal_type: 'vertical_bar' });
    // The group seeds were entered for the types the groups hold (this one's, and any the start found), and only those.
    const group = ProposalListResponseSchema.parse((await curator.get('/api/pool?scope=group&page_size=200')).body);
    const held = (db().prepare('SELECT DISTINCT c.chart_type FROM chart_group_members m JOIN charts c ON c.id = m.chart_id').all() as { chart_type: string }[]).map((row) => row.chart_type);
    expect([...new Set(group.proposals.map((p) => p.chart_type))].sort()).toEqual([...held].sort());
    expect(held).toEqual(expect.arrayContaining(['line', 'vertical_bar']));
    expect(group.proposals.every((p) => p.scope === 'group')).toBe(true);

    const items = ItemListResponseSchema.parse((await curator.get(`/api/items?run_id=${run.id}&page_size=50`)).body).items;
    const item = items.find((candidate) => candidate.qa_id === groupQa);
    expect(item, JSON.stringify(errors)).toBeDefined();
    const detail = ItemDetailResponseSchema.parse((await curator.get(`/api/items/${item?.id}`)).body).item;
    expect(detail.verifier).toMatchObject({ match: true, answer_unchanged: false, error: null, original_answer: 'Yes', recomputed_answer: 'No' });
    expect(detail.answer).toBe('No');
    expect(detail.program).toBe('if(value(1, "2019", "Sales") > value(2, "2019", "Costs"), "Yes", "No")');
    const edit = detail.edit as { chart: number }[];
    const edited = edit[0]?.chart;
    expect(edit.every((op) => op.chart === edited)).toBe(true);
    expect(detail.question).toMatch(/Would Sales in the first chart be higher than Costs in the second chart in 2019\?$/);
  });

  it('makes no item when a chart of the group has no confirmed table, and names that chart', async () => {
    const { groupId, charts } = salesAndCosts('grp-unconfirmed');
    db().prepare('UPDATE charts SET table_confirmed = 0 WHERE id = ?').run(charts[1]);
    buildQa(db(), { chartId: charts[0] as number, groupId, query: 'What is the total of Sales in the first chart and Costs in the second chart in 2020?', label: '25' });
    const { run, errors } = await runItems('grp-unconfirmed');
    expect(run).toMatchObject({ status: 'done', items_created: 0, items_failed: 1 });
    const imgname = (db().prepare('SELECT imgname FROM charts WHERE id = ?').get(charts[1]) as { imgname: string }).imgname;
    expect(errors[0]?.error).toBe(`chart grp-unconfirmed/${imgname} has no confirmed data table: the offline engine makes no items for it (chart 2 of group ${(db().prepare('SELECT name FROM chart_groups WHERE id = ?').get(groupId) as { name: string }).name})`);
  });

  it('pairs a single-chart question with no group proposal, even when the pool holds only those for its type', async () => {
    const chart = buildChart(db(), { split: 'grp-single', chartType: 'scatter', table: tableFromCells(['Point', 'X'], [['a', '1'], ['b', '2']]) });
    db().prepare("UPDATE proposals SET status = 'retired' WHERE chart_type = 'scatter' AND scope = 'chart'").run();
    insertProposal(db(), { chart_type: 'scatter', scope: 'group', text: 'Halve the value the question asks about in one chart and keep the rest of the group unchanged.', origin: 'seed', status: 'active' });
    buildQa(db(), { chartId: chart, query: 'What is the value of b?', label: '2' });
    const { run } = await runItems('grp-single');
    expect(run.tasks_total).toBe(0);
    db().prepare("UPDATE proposals SET status = 'active' WHERE chart_type = 'scatter' AND scope = 'chart' AND origin = 'seed'").run();
  });
});
