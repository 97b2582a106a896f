import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ItemDetailResponseSchema, itemsApi } from '../../shared/api/items';
import { reviewApi } from '../../shared/api/review';
import { SaveTableResponseSchema, tablesApi } from '../../shared/api/tables';
import { VerifierResultSchema } from '../../shared/table/verify';
import { tableFromCells } from '../../shared/table/model';
import { buildChart, buildChartGroup, buildItem, buildQa, markTableExtracted, rejectOpenItems, setItemStatus, setTablesConfirmed } from '../support/factories';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { itemDiscussionApi } from '../../shared/api/item-discussion';

/**
 * Items over a chart group (a factual question with `group_id`): verified over every member's
 * table wherever an item is verified (creation, a hand-written item, a curator's edit, a member's
 * table changing), marked unconfirmed while any member's table is, and shown with every chart of
 * the group on the item page, the review task (whose `chart` is the edited one) and adjudication.
 */

let server: TestServer;
let curator: TestClient;
let reviewer: TestClient;
let sales: number;
let costs: number;
let groupId: number;
let qaId: number;

const PROFIT_2020 = 'value(1, "2020", "Sales") - value(2, "2020", "Costs")';
const db = () => server.server.ctx.db;
const verifierOf = (itemId: number) =>
  VerifierResultSchema.parse(JSON.parse((db().prepare('SELECT verifier FROM hqa_items WHERE id = ?').get(itemId) as { verifier: string }).verifier));

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('rita', 'reviewer', 'reviewer-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  reviewer = new TestClient(server.url);
  await reviewer.login('rita', 'reviewer-pass-1');
  sales = buildChart(db(), { title: 'Sales, $m', chartType: 'line', table: tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12']]) });
  costs = buildChart(db(), { title: 'Costs, $m', table: tableFromCells(['Year', 'Costs'], [['2019', '4'], ['2020', '7']]) });
  groupId = buildChartGroup(db(), { chartIds: [sales, costs], name: 'Sales and costs' });
  qaId = buildQa(db(), { chartId: sales, groupId, query: 'What was the profit in 2020?', label: '5' });
});
afterAll(async () => {
  await server.close();
});

describe('verifying an item over a chart group', () => {
  it('recomputes over every chart at creation (the edit names chart 2)', () => {
    const itemId = buildItem(db(), { qaId, draft: { edit: [{ chart: 2, op: 'scale', row: '2020', factor: 0.5 }], program: PROFIT_2020, answer: '8.5', answer_type: 'decimal' } });
    expect(verifierOf(itemId)).toMatchObject({ recomputed_answer: '8.5', original_answer: '5', match: true, answer_unchanged: false, error: null });
  });

  it('verifies a hand-written item over the group and answers with the group', async () => {
    const res = await curator.send(itemsApi.create, { body: {
      qa_id: qaId,
      assumption: 'Suppose 2020 sales were 20.',
      question: 'Suppose 2020 sales were 20. What was the profit in 2020?',
      answer: '13',
      answer_type: 'integer',
      rationale: 'sales 20 minus costs 7',
      edit: [{ chart: 1, op: 'set', row: '2020', value: 20 }],
      program: PROFIT_2020,
    } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { item, group } = ItemDetailResponseSchema.parse(res.body);
    expect(item.verifier).toMatchObject({ recomputed_answer: '13', match: true });
    expect(item.affects_answer).toBe(true);
    expect(group).toMatchObject({ id: groupId, name: 'Sales and costs', edited_chart: 1 });
    expect(group?.charts.map((chart) => [chart.position, chart.id, chart.title])).toEqual([
      [1, sales, 'Sales, $m'],
      [2, costs, 'Costs, $m'],
    ]);
  });

  it('verifies again over the group when a member other than the first changes its table, and re-queues a changed answer', async () => {
    const itemId = buildItem(db(), { qaId, status: 'accepted', draft: { edit: [{ chart: 1, op: 'add', row: '2020', delta: 3 }], program: PROFIT_2020, answer: '8' } });
    expect(verifierOf(itemId).recomputed_answer).toBe('8');
    const res = await curator.send(tablesApi.save, { params: { id: costs }, body: { title: 'Costs, $m', label_header: 'Year', series: ['Costs'], rows: [{ label: '2019', cells: ['4'] }, { label: '2020', cells: ['9'] }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(SaveTableResponseSchema.parse(res.body).reverified).toBe(3);
    expect(verifierOf(itemId)).toMatchObject({ recomputed_answer: '6', match: false });
    const row = db().prepare('SELECT status, requeue_reason FROM hqa_items WHERE id = ?').get(itemId);
    expect(row).toEqual({ status: 'pending', requeue_reason: 'table_changed' });
  });

  it("re-runs the verifier over the group on a curator's edit", async () => {
    const itemId = buildItem(db(), { qaId, draft: { edit: [{ chart: 2, op: 'set', row: '2020', value: 2 }], program: PROFIT_2020, answer: '99' } });
    expect(verifierOf(itemId).match).toBe(false);
    const res = await curator.send(itemDiscussionApi.edit, { params: { id: itemId }, body: { answer: '10', reason: 'the profit is sales 12 minus costs 2' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(verifierOf(itemId)).toMatchObject({ recomputed_answer: '10', match: true });
  });

  it('marks the item unconfirmed while any member table is, whichever member it is', async () => {
    const itemId = buildItem(db(), { qaId, draft: { edit: [{ chart: 2, op: 'add', row: '2019', delta: 1 }], program: PROFIT_2020, answer: '3' } });
    const state = async () => (await curator.call(itemsApi.get, { params: { id: itemId } })).item.table_state;
    expect(await state()).toBe('confirmed');
    markTableExtracted(db(), costs);
    try {
      expect(await state()).toBe('unconfirmed');
      const list = await curator.call(itemsApi.list, { query: { page_size: 100, table: 'unconfirmed' } });
      expect(list.items.map((item) => item.id)).toContain(itemId);
      expect(await curator.send(tablesApi.confirm, { params: { id: costs } })).toMatchObject({ status: 200 });
      expect(await state()).toBe('confirmed');
    } finally {
      setTablesConfirmed(db(), [costs]);
    }
  });
});

describe('the pages of an item over a chart group', () => {
  it("give the review task the edited chart and the group's charts; a single-chart item has no group", async () => {
    rejectOpenItems(db());
    const itemId = buildItem(db(), { qaId, draft: { edit: [{ chart: 2, op: 'scale', row: '2020', factor: 2 }], program: PROFIT_2020, answer: '-6' } });
    const { task } = await reviewer.call(reviewApi.next, { body: {} });
    expect(task?.item.id).toBe(itemId);
    expect(task?.chart).toMatchObject({ id: costs, title: 'Costs, $m', chart_type: 'vertical_bar' });
    expect(task?.group?.edited_chart).toBe(2);
    expect(task?.group?.charts.map((chart) => chart.id)).toEqual([sales, costs]);
    await reviewer.send(reviewApi.release, { params: { id: itemId } });

    // An unreadable edit shows chart 1 in the pane, the group still listed.
    setItemStatus(db(), 'rejected', [itemId]);
    const broken = buildItem(db(), { qaId, draft: { edit: [{ op: 'scale', row: '2020', factor: 2 }], program: PROFIT_2020, answer: '-6' } });
    const next = (await reviewer.call(reviewApi.next, { body: {} })).task;
    expect(next?.item.id).toBe(broken);
    expect(next?.chart.id).toBe(sales);
    expect(next?.group).toMatchObject({ edited_chart: null });
    await reviewer.send(reviewApi.release, { params: { id: broken } });

    setItemStatus(db(), 'rejected', [broken]);
    const single = buildItem(db(), { qaId: buildQa(db(), { chartId: buildChart(db()) }) });
    const plain = (await reviewer.call(reviewApi.next, { body: {} })).task;
    expect(plain?.item.id).toBe(single);
    expect(plain?.group).toBeNull();
    expect((await curator.call(itemsApi.get, { params: { id: single } })).group).toBeNull();
  });

  it('give the adjudication list the group', async () => {
    const itemId = buildItem(db(), { qaId, status: 'needs_adjudication', draft: { edit: [{ chart: 1, op: 'add', row: '2020', delta: 1 }], program: PROFIT_2020, answer: '6' } });
    const entry = (await curator.call(reviewApi.adjudication)).items.find((candidate) => candidate.item.id === itemId);
    expect(entry?.group).toMatchObject({ id: groupId, edited_chart: 1 });
  });
});
