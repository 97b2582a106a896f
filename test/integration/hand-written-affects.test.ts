import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ItemDetail, ItemDetailResponseSchema, itemsApi } from '../../shared/api/items';
import { getQaWithChart, type QaWithChart } from '../../server/charts/chart-queries';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * A hand-written item's "the assumption changes the answer" is the verifier's finding (issue 16,
 * point 10): the item's program before and after the edit, or without an edit its answer against
 * the factual label. What the writer sends in its place is not read.
 */
let server: TestServer;
let curator: TestClient;
let source: QaWithChart;
let rows: { label: string; value: number }[];

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser('cara', 'curator', 'curator-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cara', 'curator-pass-1');
  // A demo chart with one series and two numeric rows: value("row") reads it.
  // One-chart questions on charts with a table (the demo also holds an image-only chart and a group).
  const qaIds = server.server.ctx.db
    .prepare('SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.data_table IS NOT NULL AND q.group_id IS NULL ORDER BY q.id')
    .all() as { id: number }[];
  const found = qaIds
    .map(({ id }) => getQaWithChart(server.server.ctx.db, id))
    .find((qa) => qa !== null && qa.chart.table.series.length === 1 && qa.chart.table.rows.filter((row) => typeof row.values[0] === 'number').length >= 2);
  if (!found) throw new Error('no single-series demo chart');
  source = found;
  rows = source.chart.table.rows.flatMap((row) => (typeof row.values[0] === 'number' ? [{ label: row.label, value: row.values[0] }] : []));
});
afterAll(() => server.close());

async function write(fields: { edit: unknown; program: string; answer: string; affects_answer?: boolean }): Promise<ItemDetail> {
  const res = await curator.send(itemsApi.create, { body: {
    qa_id: source.qa.id,
    assumption: 'Suppose the values changed.',
    question: 'Suppose the values changed. What would the value be?',
    answer_type: 'text',
    rationale: 'hand-written',
    ...fields,
  } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ItemDetailResponseSchema.parse(res.body).item;
}

describe('a hand-written item', () => {
  it('changes the answer when the program gives another answer on the edited table', async () => {
    const [first] = rows;
    const item = await write({ edit: [{ op: 'scale', row: first?.label, factor: 3 }], program: `value(${JSON.stringify(first?.label)})`, answer: String((first?.value ?? 0) * 3) });
    expect(item.verifier.answer_unchanged).toBe(false);
    expect(item.affects_answer).toBe(true);
  });

  it('does not when the edit leaves the program\'s answer as it was, whatever the writer claims', async () => {
    const [first, second] = rows;
    const item = await write({
      edit: [{ op: 'scale', row: second?.label, factor: 3 }],
      program: `value(${JSON.stringify(first?.label)})`,
      answer: String(first?.value),
      affects_answer: true,
    });
    expect(item.verifier.answer_unchanged).toBe(true);
    expect(item.affects_answer).toBe(false);
  });

  it('without an edit, compares its answer with the factual label', async () => {
    const same = await write({ edit: null, program: '1', answer: source.qa.label, affects_answer: true });
    expect(same.verifier.answer_unchanged).toBeNull();
    expect(same.affects_answer).toBe(false);
    const other = await write({ edit: null, program: '1', answer: `${source.qa.label} and more`, affects_answer: false });
    expect(other.affects_answer).toBe(true);
  });
});
