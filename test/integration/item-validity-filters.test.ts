import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ItemListResponseSchema, itemsApi, type ItemSummary } from '../../shared/api/items';
import { ErrorBodySchema } from '../../shared/errors';
import type { Edit } from '../../shared/table/edit';
import { getQaWithChart } from '../../server/charts/chart-queries';
import { importSplit } from '../../server/import/import-split';
import { createItem, createVerifiedItem, type NewItem } from '../../server/items/item-service';
import { classifyLegacyItems } from '../../server/items/item-validity';
import { searchQuery, TestClient } from '../support/http-client';
import { unclassifyItem } from '../support/factories';
import { CHARTQA_SAMPLE } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';
import { HUMAN_ITEM } from '../support/item-factory';

/**
 * GET /api/items narrows the list by benchmark validity. Items on ChartQA's two_col_158 (tyre
 * makers' revenue: Bridgestone 27.23, Michelin 26.55, Goodyear 14.75, Continental 12.9), made
 * the way the server makes them, so every flag is the verifier's and the classifier's own.
 */

const FACTUAL = 'What is the name of the company have highest tire-related revenue ?';
const SMALLEST_UP = 'Raise the smallest bar until it becomes the largest, leaving the other bars unchanged.';

let server: TestServer;
let curator: TestClient;
const db = () => server.server.ctx.db;
const ids = { sameChanged: 0, different: 0, unchanged: 0, control: 0, offProposal: 0, onProposal: 0, unclassified: 0 };

function draftOn(edit: Edit, program: string, answer: string, question?: string): NewItem {
  const qa = db().prepare("SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.imgname = 'two_col_158.png' AND q.query = ?").get(FACTUAL) as {
    id: number;
  };
  const source = getQaWithChart(db(), qa.id);
  if (!source) throw new Error(`qa ${qa.id}`);
  const assumption = 'Suppose the revenue figures changed as the edit says.';
  return {
    source,
    draft: { assumption, question: `${assumption} ${question ?? FACTUAL}`, answer, answer_type: 'text', rationale: 'hand-built', affects_answer: true, edit, program },
    ...HUMAN_ITEM,
  };
}

function stored(item: ItemSummary | null): number {
  if (!item) throw new Error('not stored');
  return item.id;
}

const up = (row: string, delta: number): Edit => [{ op: 'add', row, delta }];

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  expect(importSplit(db(), CHARTQA_SAMPLE).errors).toEqual([]);
  const proposal = db().prepare('SELECT id FROM proposals WHERE text = ?').get(SMALLEST_UP) as { id: number };

  ids.sameChanged = stored(createVerifiedItem(db(), draftOn(up('Michelin (France)', 1), 'argmax(series())', 'Michelin (France)')));
  // +10, not +1: a total within ChartQA's 5 % of the old one counts as unchanged.
  ids.different = stored(
    createVerifiedItem(db(), draftOn(up('Michelin (France)', 10), 'sum(series())', '91.43', 'What would the total revenue of the four companies be?')),
  );
  ids.unchanged = stored(createVerifiedItem(db(), draftOn(up('Goodyear (U.S.)', 1), 'argmax(series())', 'Bridgestone (Japan)')));
  const control = createItem(db(), draftOn(up('Continental (Germany)', 1), 'argmax(series())', 'Bridgestone (Japan)'), 'control');
  ids.control = stored(control.ok ? control.item : null);
  ids.offProposal = stored(createVerifiedItem(db(), { ...draftOn(up('Michelin (France)', 1), 'argmax(series())', 'Michelin (France)'), proposalId: proposal.id }));
  ids.onProposal = stored(
    createVerifiedItem(db(), { ...draftOn(up('Continental (Germany)', 20), 'argmax(series())', 'Continental (Germany)'), proposalId: proposal.id }),
  );
  // As an item made before questions were classified.
  ids.unclassified = stored(createVerifiedItem(db(), draftOn(up('Michelin (France)', 2), 'argmax(series())', 'Michelin (France)')));
  unclassifyItem(db(), ids.unclassified);

  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
});

afterAll(async () => {
  await server?.close();
});

async function listed(search: string): Promise<number[]> {
  const body = await curator.call(itemsApi.list, { query: { page_size: 100, ...searchQuery(search) } });
  expect(body.total).toBe(body.items.length);
  return body.items.map((item) => item.id).sort((a, b) => a - b);
}

const sorted = (...values: number[]) => [...values].sort((a, b) => a - b);

describe('items filtered by benchmark validity', () => {
  it('starts from items whose flags are the ones meant', async () => {
    const res = await curator.send(itemsApi.list, { query: { page_size: 100 } });
    const byId = new Map(ItemListResponseSchema.parse(res.body).items.map((item) => [item.id, item]));
    const flags = (id: number) => {
      const item = byId.get(id);
      return item && { relation: item.question_relation, unchanged: item.answer_unchanged, control: item.is_control, consistent: item.proposal_consistent };
    };
    expect(flags(ids.sameChanged)).toEqual({ relation: 'same', unchanged: false, control: false, consistent: null });
    expect(flags(ids.different)).toEqual({ relation: 'different', unchanged: false, control: false, consistent: null });
    expect(flags(ids.unchanged)).toEqual({ relation: 'same', unchanged: true, control: false, consistent: null });
    expect(flags(ids.control)).toEqual({ relation: 'same', unchanged: true, control: true, consistent: null });
    expect(flags(ids.offProposal)).toEqual({ relation: 'same', unchanged: false, control: false, consistent: false });
    expect(flags(ids.onProposal)).toEqual({ relation: 'same', unchanged: false, control: false, consistent: true });
    expect(flags(ids.unclassified)).toEqual({ relation: null, unchanged: false, control: false, consistent: null });
  });

  it('by question relation: the factual question, a different one, or not classified yet', async () => {
    expect(await listed('question_relation=different')).toEqual([ids.different]);
    expect(await listed('question_relation=unclassified')).toEqual([ids.unclassified]);
    expect(await listed('question_relation=same')).toEqual(sorted(ids.sameChanged, ids.unchanged, ids.control, ids.offProposal, ids.onProposal));
  });

  it('by whether the assumption changes the answer', async () => {
    expect(await listed('answer_unchanged=true')).toEqual(sorted(ids.unchanged, ids.control));
    expect(await listed('answer_unchanged=false')).toEqual(sorted(ids.sameChanged, ids.different, ids.offProposal, ids.onProposal, ids.unclassified));
  });

  it('by whether the edit does what its proposal says; items without a proposal match neither', async () => {
    expect(await listed('proposal_consistent=false')).toEqual([ids.offProposal]);
    expect(await listed('proposal_consistent=true')).toEqual([ids.onProposal]);
  });

  it('by control, and combined with each other', async () => {
    expect(await listed('is_control=true')).toEqual([ids.control]);
    expect(await listed('is_control=false')).toEqual(sorted(...Object.values(ids).filter((id) => id !== ids.control)));
    expect(await listed('answer_unchanged=true&is_control=false')).toEqual([ids.unchanged]);
    expect(await listed('question_relation=same&proposal_consistent=false')).toEqual([ids.offProposal]);
  });

  it('refuses a value it does not know, naming the field', async () => {
    for (const [search, field] of [
      ['question_relation=other', 'query.question_relation'],
      ['answer_unchanged=yes', 'query.answer_unchanged'],
      ['proposal_consistent=1', 'query.proposal_consistent'],
      ['is_control=maybe', 'query.is_control'],
    ] as const) {
      const res = await curator.send(itemsApi.list, { query: searchQuery(search) });
      expect(res.status).toBe(400);
      expect(ErrorBodySchema.parse(res.body).error.field).toBe(field);
    }
  });

  it('classifies items made before the relation existed, as new items are classified (what a server start does)', async () => {
    expect(classifyLegacyItems(db())).toBe(1);
    expect(await listed('question_relation=unclassified')).toEqual([]);
    expect(await listed('question_relation=same')).toContain(ids.unclassified);
    expect(classifyLegacyItems(db())).toBe(0);
  });
});
