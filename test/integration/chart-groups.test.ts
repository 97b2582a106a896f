import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditApi } from '../../shared/api/audit';
import {
  AddGroupQuestionResponseSchema,
  ChartGroupResponseSchema,
  chartGroupsApi,
  DeleteChartGroupResponseSchema,
} from '../../shared/api/chart-groups';
import { ErrorBodySchema } from '../../shared/errors';
import { tableFromCells } from '../../shared/table/model';
import { buildChart, buildChartGroup, buildStoredItem } from '../support/factories';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

/** Curators' chart groups over the API: made from 2–4 charts of one split, renamed, reordered, asked questions, deleted when nothing depends on them. */

let server: TestServer;
let curator: TestClient;
let reviewer: TestClient;
let admin: TestClient;
const charts: number[] = [];
/** The nth chart made for these tests (0, which no chart has, when there is none). */
const chartAt = (n: number) => charts[n] ?? 0;
let otherSplitChart: number;

const SALES = tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12']]);
const COSTS = tableFromCells(['Year', 'Costs'], [['2019', '4'], ['2020', '7']]);

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('rex', 'reviewer', 'reviewer-pass-1');
  await server.createUser('ada', 'admin', 'admin-pass-1');
  curator = new TestClient(server.url);
  reviewer = new TestClient(server.url);
  admin = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  await reviewer.login('rex', 'reviewer-pass-1');
  await admin.login('ada', 'admin-pass-1');
  const db = server.server.ctx.db;
  charts.push(buildChart(db, { split: 'g', imgname: 'sales.png', table: SALES }), buildChart(db, { split: 'g', imgname: 'costs.png', table: COSTS }), buildChart(db, { split: 'g', imgname: 'third.png' }));
  otherSplitChart = buildChart(db, { split: 'h', imgname: 'elsewhere.png' });
});
afterAll(async () => {
  await server.close();
});

function errorOf(body: unknown) {
  return ErrorBodySchema.parse(body).error;
}

describe('curator chart groups', () => {
  it('are created from charts of one split in the order given, and listed with their members', async () => {
    const { group } = await curator.call(chartGroupsApi.create, { body: { name: 'Sales and costs', chart_ids: [chartAt(1), chartAt(0)] } });
    expect(group).toMatchObject({ split: 'g', name: 'Sales and costs', source: 'curator', question_count: 0, item_count: 0 });
    expect(group.members.map((m) => [m.position, m.imgname])).toEqual([[1, 'costs.png'], [2, 'sales.png']]);

    const list = await reviewer.call(chartGroupsApi.list, { query: { split: 'g' } });
    expect(list.groups.map((g) => g.name)).toContain('Sales and costs');
    const detail = await reviewer.call(chartGroupsApi.get, { params: { id: group.id } });
    expect(detail.charts.map((c) => c.data_table?.series)).toEqual([['Costs'], ['Sales']]);
  });

  it('refuse what is wrong, naming the chart or field', async () => {
    const one = await curator.send(chartGroupsApi.create, { body: { name: 'Alone', chart_ids: [charts[0]] } });
    expect(one.status).toBe(400);
    expect(errorOf(one.body)).toMatchObject({ field: 'body.chart_ids' });

    const twice = await curator.send(chartGroupsApi.create, { body: { name: 'Twice', chart_ids: [charts[0], charts[0]] } });
    expect(twice.status).toBe(400);
    expect(errorOf(twice.body)).toMatchObject({ field: 'body.chart_ids.1', message: expect.stringContaining(`chart ${charts[0]} is already chart 1`) });

    const missing = await curator.send(chartGroupsApi.create, { body: { name: 'Missing', chart_ids: [charts[0], 999_999] } });
    expect(missing.status).toBe(400);
    expect(errorOf(missing.body)).toEqual({ code: 'bad_request', field: 'body.chart_ids.1', message: 'chart 999999 not found' });

    const mixed = await curator.send(chartGroupsApi.create, { body: { name: 'Mixed', chart_ids: [charts[0], otherSplitChart] } });
    expect(mixed.status).toBe(400);
    expect(errorOf(mixed.body)).toMatchObject({ field: 'body.chart_ids.1', message: expect.stringContaining('h/elsewhere.png) is in split "h"') });

    const taken = await curator.send(chartGroupsApi.create, { body: { name: 'sales AND costs', chart_ids: [charts[0], charts[2]] } });
    expect(taken.status).toBe(409);
    expect(errorOf(taken.body)).toMatchObject({ field: 'body.name', message: expect.stringContaining('already has a group named "Sales and costs"') });

    const byReviewer = await reviewer.send(chartGroupsApi.create, { body: { name: 'Not mine', chart_ids: [charts[0], charts[2]] } });
    expect(byReviewer.status).toBe(403);
  });

  it('are renamed and reordered until a question names their charts by position', async () => {
    const { group } = await curator.call(chartGroupsApi.create, { body: { name: 'To reorder', chart_ids: [chartAt(0), chartAt(2)] } });
    const reordered = await curator.send(chartGroupsApi.update, { params: { id: group.id }, body: { name: 'Reordered', chart_ids: [charts[2], charts[0]] } });
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
    expect(ChartGroupResponseSchema.parse(reordered.body).group).toMatchObject({ name: 'Reordered', members: [{ chart_id: charts[2] }, { chart_id: charts[0] }] });

    const other = await curator.send(chartGroupsApi.update, { params: { id: group.id }, body: { chart_ids: [charts[2], charts[1]] } });
    expect(other.status).toBe(400);
    expect(errorOf(other.body).field).toBe('body.chart_ids');

    expect((await curator.send(chartGroupsApi.addQuestion, { params: { id: group.id }, body: { query: 'What is the total?', label: '3' } })).status).toBe(201);
    const frozen = await curator.send(chartGroupsApi.update, { params: { id: group.id }, body: { chart_ids: [charts[0], charts[2]] } });
    expect(frozen.status).toBe(409);
    expect(errorOf(frozen.body).message).toContain('1 question(s) that name its charts by position');
  });

  it('take a factual question over their charts, its answer kind as the importer reads it', async () => {
    const { group } = await curator.call(chartGroupsApi.create, { body: { name: 'Questions', chart_ids: [chartAt(0), chartAt(1)] } });
    const asked = await curator.send(chartGroupsApi.addQuestion, { params: { id: group.id }, body: {
      query: 'What is the difference between Sales in the first chart and Costs in the second chart in 2020?',
      label: '5',
    } });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    expect(AddGroupQuestionResponseSchema.parse(asked.body).question).toMatchObject({ label: '5', answer_kind: 'number', source: 'human', item_count: 0 });
    const text = (await curator.call(chartGroupsApi.addQuestion, { params: { id: group.id }, body: { query: 'Which chart is about money?', label: 'Both' } })).question;
    expect(text.answer_kind).toBe('text');

    const again = await curator.send(chartGroupsApi.addQuestion, { params: { id: group.id }, body: { query: 'which chart is about money?', label: 'Both' } });
    expect(again.status).toBe(409);
    const empty = await curator.send(chartGroupsApi.addQuestion, { params: { id: group.id }, body: { query: '  ', label: '1' } });
    expect(errorOf(empty.body)).toMatchObject({ field: 'body.query' });

    // Stored on the group's first chart, with the group: per-chart lists and generation read it from there.
    const row = server.server.ctx.db.prepare('SELECT chart_id, group_id FROM factual_qas WHERE id = ?').get(text.id);
    expect(row).toEqual({ chart_id: charts[0], group_id: group.id });
    const detail = await curator.call(chartGroupsApi.get, { params: { id: group.id } });
    expect(detail.questions.map((q) => q.label)).toEqual(['5', 'Both']);
    expect(detail.group.question_count).toBe(2);
  });

  it('are deleted with their questions only when no item depends on them, else say how many do', async () => {
    const db = server.server.ctx.db;
    const { group } = await curator.call(chartGroupsApi.create, { body: { name: 'Doomed', chart_ids: [chartAt(1), chartAt(2)] } });
    const question = (await curator.call(chartGroupsApi.addQuestion, { params: { id: group.id }, body: { query: 'Q over both?', label: '2' } })).question;
    buildStoredItem(db, { qaId: question.id, chartId: charts[1] as number });
    buildStoredItem(db, { qaId: question.id, chartId: charts[1] as number });
    const refused = await curator.send(chartGroupsApi.remove, { params: { id: group.id } });
    expect(refused.status).toBe(409);
    expect(errorOf(refused.body).message).toBe('group "Doomed" cannot be deleted: 2 item(s) are written over its questions');
    expect((await curator.call(chartGroupsApi.get, { params: { id: group.id } })).group.item_count).toBe(2);

    const { group: free } = await curator.call(chartGroupsApi.create, { body: { name: 'Free', chart_ids: [chartAt(1), chartAt(2)] } });
    await curator.send(chartGroupsApi.addQuestion, { params: { id: free.id }, body: { query: 'Unused?', label: '1' } });
    const deleted = await curator.send(chartGroupsApi.remove, { params: { id: free.id } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(DeleteChartGroupResponseSchema.parse(deleted.body)).toEqual({ deleted_questions: 1 });
    expect((await curator.send(chartGroupsApi.get, { params: { id: free.id } })).status).toBe(404);
  });

  it('from MultiChartQA keep their membership, and are never deleted here', async () => {
    const db = server.server.ctx.db;
    const groupId = buildChartGroup(db, { chartIds: [charts[0] as number, charts[1] as number], split: 'g', name: 'mcqa-1', source: 'multichartqa' });
    const reorder = await curator.send(chartGroupsApi.update, { params: { id: groupId }, body: { chart_ids: [charts[1], charts[0]] } });
    expect(reorder.status).toBe(409);
    expect(errorOf(reorder.body).message).toContain('comes from MultiChartQA');
    expect((await curator.send(chartGroupsApi.update, { params: { id: groupId }, body: { name: 'MultiChartQA pair' } })).status).toBe(200);
    expect((await curator.send(chartGroupsApi.remove, { params: { id: groupId } })).status).toBe(409);
    const list = await reviewer.call(chartGroupsApi.list, { query: { source: 'multichartqa' } });
    expect(list.groups.map((g) => g.name)).toEqual(['MultiChartQA pair']);
  });

  it('leave audit entries for creating, editing, asking and deleting', async () => {
    const audit = await admin.call(auditApi.list, { query: { target_type: 'chart_group', limit: 200 } });
    const actions = new Set(audit.entries.map((e) => e.action));
    expect([...actions].sort()).toEqual(['chart_group.created', 'chart_group.deleted', 'chart_group.edited', 'chart_group.question_added']);
    expect(audit.entries.every((e) => e.actor_username === 'cora')).toBe(true);
  });
});
