import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ITEM_SORTS, ItemListResponseSchema, itemsApi, type ItemSort, type ItemSummary } from '../../shared/api/items';
import type { ItemStatus } from '../../shared/domain/generation';
import { ErrorBodySchema } from '../../shared/errors';
import type { Finding } from '../../shared/table/lint';
import { requeue } from '../../server/review/review-service';
import { buildChart, buildItem, buildQa, rewriteItemText } from '../support/factories';
import { searchQuery, TestClient } from '../support/http-client';
import { connectAs, recordEvents } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The Items page's work list over HTTP: keyset paging under every sort (ties on status and
 * chart broken by id), full-text search in each searched field, a filter for every flag, and
 * the curators' bulk re-queue of a whole filter.
 */

let server: TestServer;
let curator: TestClient;
let reviewer: TestClient;
const db = () => server.server.ctx.db;
const STATUSES: ItemStatus[] = ['pending', 'accepted', 'rejected', 'accepted', 'needs_adjudication', 'pending', 'accepted'];
const search = { question: 0, assumption: 0, answer: 0 };
let everyId: number[] = [];

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('rex', 'reviewer', 'reviewer-pass-1');
  // Three charts of Year/Sales (2019: 10, 2020: 20); their QAs' label is 20, so an item answering 20 trips the bias guard.
  const qas = [0, 1, 2].map(() => buildQa(db(), { chartId: buildChart(db()), query: 'What were the sales in 2020?', label: '20' }));
  const qa = (i: number) => qas[i % qas.length] ?? 0;
  const drafts = [
    { answer: '21', program: '21' },
    { answer: '20', program: '20' }, // answer = factual label: bias flag
    { answer: '5', program: '6' }, // verifier mismatch
    { answer: '21', program: '21', edit: [] }, // lint: no_change (a warning)
    { answer: '21', program: '21', edit: [{ op: 'add' as const, row: '1999', delta: 1 }] }, // lint: unknown_label (an error)
    { answer: '30', program: "value('2020', 'Sales')", edit: [{ op: 'add' as const, row: '2020', delta: 10 }] },
  ];
  for (let i = 0; i < 40; i++) {
    const draft = drafts[i % drafts.length] ?? {};
    buildItem(db(), {
      qaId: qa(i),
      draft: { assumption: `Suppose the sales figures changed, case ${i}.`, question: `Suppose the sales figures changed, case ${i}. What were the sales in 2020?`, ...draft },
      status: STATUSES[i % STATUSES.length],
    });
  }
  // One word in one field each: the search must look in all three.
  search.question = buildItem(db(), { qaId: qa(0), draft: { question: 'What would the turnover of Zanzibarian shops be?' } });
  search.assumption = buildItem(db(), { qaId: qa(1), draft: { assumption: 'Suppose hypothetically that Quetzalcoatl ruled.' } });
  search.answer = buildItem(db(), { qaId: qa(2), draft: { answer: 'Xylophonic', program: "'Xylophonic'", answer_type: 'text' } });
  // Two items sent back because their chart's table changed, as a re-import sends them.
  requeue(db(), [1, 2], null, 'table_changed');
  everyId = (db().prepare('SELECT id FROM hqa_items ORDER BY id').all() as { id: number }[]).map((row) => row.id);

  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  reviewer = new TestClient(server.url);
  await reviewer.login('rex', 'reviewer-pass-1');
});

afterAll(async () => {
  await server?.close();
});

async function page(query: string) {
  const res = await curator.send(itemsApi.list, { query: searchQuery(query) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ItemListResponseSchema.parse(res.body);
}

/** Every item the filter lists, following next_cursor from the first page. */
async function walk(query: string, pageSize = 7): Promise<{ items: ItemSummary[]; pages: number[][] }> {
  const items: ItemSummary[] = [];
  const pages: number[][] = [];
  let cursor: string | null = null;
  do {
    const body = await page(`${query}&page_size=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...body.items);
    pages.push(body.items.map((item) => item.id));
    cursor = body.next_cursor;
    expect(pages.length).toBeLessThan(100);
  } while (cursor !== null);
  return { items, pages };
}

const ids = (items: readonly { id: number }[]) => items.map((item) => item.id);
const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

/** The order each sort promises, from the items' own fields. */
const ORDER: Record<ItemSort, (a: ItemSummary, b: ItemSummary) => number> = {
  newest: (a, b) => b.id - a.id,
  oldest: (a, b) => a.id - b.id,
  status: (a, b) => (a.status < b.status ? -1 : a.status > b.status ? 1 : a.id - b.id),
  chart: (a, b) => a.chart_id - b.chart_id || a.id - b.id,
};

describe('keyset paging', () => {
  for (const sort of ITEM_SORTS) {
    it(`under sort=${sort}, lists every item exactly once across pages, in order, and walks back the same pages`, async () => {
      const { items, pages } = await walk(`sort=${sort}`);
      expect(ascending(ids(items))).toEqual(everyId);
      expect(ids(items)).toEqual(ids([...items].sort(ORDER[sort])));
      expect(pages.length).toBe(Math.ceil(everyId.length / 7));
      // Back from the last page by prev_cursor: the same pages, in reverse.
      const last = await page(`sort=${sort}&page_size=7&cursor=${encodeURIComponent((await lastCursor(sort)) ?? '')}`);
      expect(ids(last.items)).toEqual(pages[pages.length - 1]);
      const back: number[][] = [ids(last.items)];
      let prev = last.prev_cursor;
      while (prev !== null) {
        const body = await page(`sort=${sort}&page_size=7&cursor=${encodeURIComponent(prev)}`);
        back.unshift(ids(body.items));
        prev = body.prev_cursor;
      }
      expect(back).toEqual(pages);
    });
  }

  it('ties are real: several items share a status and a chart', async () => {
    const { items } = await walk('sort=status');
    expect(new Set(items.map((item) => item.status)).size).toBeLessThan(items.length / 5);
    expect(new Set(items.map((item) => item.chart_id)).size).toBe(3);
  });

  it('pages a filter too, with its total', async () => {
    const accepted = await walk('status=accepted&sort=chart', 4);
    const expected = (db().prepare("SELECT id FROM hqa_items WHERE status = 'accepted' ORDER BY id").all() as { id: number }[]).map((row) => row.id);
    expect(ascending(ids(accepted.items))).toEqual(expected);
    expect((await page('status=accepted&page_size=4')).total).toBe(expected.length);
  });

  it('refuses a cursor made for another sort, or not made by the list, naming the field', async () => {
    const first = await page('sort=status&page_size=5');
    for (const query of [`sort=chart&cursor=${encodeURIComponent(first.next_cursor ?? '')}`, 'cursor=not-a-cursor', `cursor=${Buffer.from('{"s":"newest"}').toString('base64url')}`]) {
      const res = await curator.send(itemsApi.list, { query: searchQuery(query) });
      expect(res.status).toBe(400);
      expect(ErrorBodySchema.parse(res.body).error.field).toBe('query.cursor');
    }
  });
});

/** The cursor of the last page under `sort`, as a reader paging forward reaches it. */
async function lastCursor(sort: ItemSort): Promise<string | null> {
  let cursor: string | null = null;
  let previous: string | null = null;
  do {
    const body = await page(`sort=${sort}&page_size=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    previous = cursor;
    cursor = body.next_cursor;
  } while (cursor !== null);
  return previous;
}

describe('full-text search', () => {
  it('finds an item by a word of its question, of its assumption and of its answer, and by a word being typed', async () => {
    expect(ids((await page('q=zanzibarian')).items)).toEqual([search.question]);
    expect(ids((await page('q=Quetzalcoatl')).items)).toEqual([search.assumption]);
    expect(ids((await page('q=xylophonic')).items)).toEqual([search.answer]);
    expect(ids((await page('q=quetzal')).items)).toEqual([search.assumption]);
  });

  it('needs every word, treats search syntax as text, and combines with filters and paging', async () => {
    expect((await page('q=hypothetically%20zanzibarian')).total).toBe(0);
    expect(ids((await page('q=%22Quetzalcoatl%22%20-(%20*%3A')).items)).toEqual([search.assumption]);
    expect((await page('q=Quetzalcoatl%20AND%20ruled')).total, 'AND is a word to find, not an operator').toBe(0);
    const cases = await walk('q=sales%20case&status=accepted', 3);
    const expected = (db().prepare("SELECT id FROM hqa_items WHERE status = 'accepted' AND question LIKE '%case%' ORDER BY id").all() as { id: number }[]).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(3);
    expect(ascending(ids(cases.items))).toEqual(expected);
  });

  it('follows a change of the text (the index is kept by triggers)', async () => {
    rewriteItemText(db(), search.question, { question: 'What would Brobdingnag sell?' });
    expect(ids((await page('q=brobdingnag')).items)).toEqual([search.question]);
    expect((await page('q=zanzibarian')).total).toBe(0);
  });
});

describe('a filter for every flag', () => {
  let all: ItemSummary[] = [];
  const lint = new Map<number, Finding[]>();
  beforeAll(async () => {
    all = (await walk('sort=oldest', 50)).items;
    for (const item of all) {
      const detail = await curator.call(itemsApi.get, { params: { id: item.id } });
      lint.set(item.id, detail.item.verifier.lint);
    }
  });

  /** The filter lists exactly the items `expected` picks, and that is some but not all of them. */
  async function expectFilter(query: string, expected: (item: ItemSummary) => boolean) {
    const want = ids(all.filter(expected));
    expect(want.length, query).toBeGreaterThan(0);
    expect(want.length, query).toBeLessThan(all.length);
    expect(ascending(ids((await walk(`${query}&sort=oldest`, 50)).items)), query).toEqual(want);
  }

  it('verifier mismatch', async () => {
    await expectFilter('verifier_match=false', (item) => item.verifier_match === false);
    await expectFilter('verifier_match=true', (item) => item.verifier_match === true);
  });

  it('lint: any finding, errors, none', async () => {
    const findings = (item: ItemSummary) => lint.get(item.id) ?? [];
    await expectFilter('lint=any', (item) => findings(item).length > 0);
    await expectFilter('lint=error', (item) => findings(item).some((finding) => finding.severity === 'error'));
    await expectFilter('lint=none', (item) => findings(item).length === 0);
    expect(all.some((item) => findings(item).length > 0 && findings(item).every((finding) => finding.severity !== 'error'))).toBe(true);
  });

  it('bias guards: any flag, none, one flag', async () => {
    await expectFilter('bias=any', (item) => item.bias_flags.length > 0);
    await expectFilter('bias=none', (item) => item.bias_flags.length === 0);
    await expectFilter('bias=unchanged_answer', (item) => item.bias_flags.includes('unchanged_answer'));
  });

  it('question relation, answer unchanged', async () => {
    await expectFilter('answer_unchanged=false', (item) => item.answer_unchanged === false);
    const relations = new Set(all.map((item) => item.question_relation));
    for (const relation of relations) {
      if (relations.size > 1) await expectFilter(`question_relation=${relation ?? 'unclassified'}`, (item) => item.question_relation === relation);
    }
    expect(relations.size, 'the fixture has more than one relation').toBeGreaterThan(1);
  });

  it('stale: sent back because the chart’s table changed', async () => {
    await expectFilter('stale=true', (item) => item.requeue_reason === 'table_changed');
    await expectFilter('stale=false', (item) => item.requeue_reason !== 'table_changed');
    expect(ids((await page('stale=true')).items).sort()).toEqual([1, 2]);
  });

  it('refuses a flag value it does not know, naming the field', async () => {
    for (const [query, field] of [
      ['lint=maybe', 'query.lint'],
      ['bias=some', 'query.bias'],
      ['stale=1', 'query.stale'],
      ['sort=random', 'query.sort'],
    ] as const) {
      const res = await curator.send(itemsApi.list, { query: searchQuery(query) });
      expect(res.status).toBe(400);
      expect(ErrorBodySchema.parse(res.body).error.field).toBe(field);
    }
  });
});

describe('bulk re-queue of a whole filter', () => {
  it('is for curators: a reviewer gets 403 and nothing changes', async () => {
    const before = (await page('status=accepted')).total;
    const res = await reviewer.send(itemsApi.requeue, { body: { filter: { status: 'accepted' } } });
    expect(res.status).toBe(403);
    expect((await page('status=accepted')).total).toBe(before);
  });

  it('re-queues every item the filter matches (beyond one page), says how many, and tells other pages over the socket', async () => {
    const matching = await page('status=accepted&bias=none&page_size=2');
    expect(matching.total).toBeGreaterThan(2);
    const socket = await connectAs(server.url, curator);
    const decided = recordEvents(socket, 'item.decided');
    try {
      const res = await curator.send(itemsApi.requeue, { body: { filter: { status: 'accepted', bias: 'none' } } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ requeued: matching.total });
      expect((await page('status=accepted&bias=none')).total).toBe(0);
      expect((await page('status=accepted')).total).toBeGreaterThan(0);
      await expect.poll(() => decided.length).toBe(matching.total);
      expect(decided.every((event) => (event as { status: string }).status === 'pending')).toBe(true);
    } finally {
      socket.disconnect();
    }
  });
});
