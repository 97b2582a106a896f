import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analyticsApi } from '../../shared/api/analytics';
import { ItemDetailResponseSchema, itemsApi, type CreateItemRequest } from '../../shared/api/items';
import { reflectionApi } from '../../shared/api/reflection';
import { reviewApi } from '../../shared/api/review';
import { ErrorBodySchema } from '../../shared/errors';
import { getQaWithChart } from '../../server/charts/chart-queries';
import { offlineItem } from '../../server/generation/offline/offline-item';
import { createVerifiedItem } from '../../server/items/item-service';
import { getProposal } from '../../server/pool/pool-queries';
import { deleteItemLeases } from '../../server/review/review-queries';
import { addProposal } from '../../server/pool/pool-service';
import { putSettings } from '../../server/settings/settings-queries';
import { buildLease, dropLeases, expireLease, listItemIds, setItemStatus } from '../support/factories';
import { jsonReply, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { TestClient } from '../support/http-client';
import { acceptReview, rejectReview } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * No self-approval, no review without a lease (issue 12, point 2): a review needs the
 * reviewer's own live lease, an item's author never reviews it, only curators attach a
 * hand-written item to a proposal, and a reviewer's own items never judge a proposal.
 */
let fake: FakeOpenAI;
let server: TestServer;
let curator: TestClient;
let ann: TestClient;
let ben: TestClient;
const db = () => server.server.ctx.db;
const userId = (name: string) => (db().prepare('SELECT id FROM users WHERE username = ?').get(name) as { id: number }).id;

beforeAll(async () => {
  // Reflection goes to a model, so that what reaches a reflection prompt can be read off the wire.
  fake = await startFakeOpenAI();
  fake.setDefault(() => jsonReply({ revised_proposal: 'Double the bar the question asks about.', addressed: 'reviewers asked for it' }));
  server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
  for (const [name, role] of [
    ['cora', 'curator'],
    ['ann', 'reviewer'],
    ['ben', 'reviewer'],
  ] as const) {
    await server.createUser(name, role, `${name}-password-1`);
  }
  curator = new TestClient(server.url);
  await curator.login('cora', 'cora-password-1');
  ann = new TestClient(server.url);
  await ann.login('ann', 'ann-password-1');
  ben = new TestClient(server.url);
  await ben.login('ben', 'ben-password-1');
});
afterAll(async () => {
  await server.close();
  await fake.close();
});
beforeEach(() => {
  dropLeases(db());
  putSettings(db(), { reviews_per_item: 1 });
});

/** An offline-made item draft for the QA, or null when the rules cannot ask it under the proposal. */
function draftFor(qaId: number, proposalId: number) {
  const source = getQaWithChart(db(), qaId);
  const proposal = getProposal(db(), proposalId);
  if (!source || !proposal) return null;
  const made = offlineItem({ table: source.chart.table, chartType: source.chart.chart_type, title: source.chart.title ?? '', qa: source.qa, proposal, seed: qaId });
  return made.ok ? { source, draft: made.draft } : null;
}

/**
 * `count` hand-written items on the proposal by `author`, stored through the item service
 * with the proposal set — as the API let reviewers do before only curators could attach one.
 */
function handWrittenItems(proposalId: number, author: number, count: number, skipQas: ReadonlySet<number> = new Set()): number[] {
  const proposal = getProposal(db(), proposalId);
  const qaIds = (
    // One-chart questions on charts with a table (the demo also holds an image-only chart and a group).
    db()
      .prepare('SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.data_table IS NOT NULL AND q.group_id IS NULL ORDER BY c.chart_type = ? DESC, q.id')
      .all(proposal?.chart_type) as { id: number }[]
  ).map((r) => r.id);
  const ids: number[] = [];
  for (const qaId of qaIds) {
    if (ids.length >= count) break;
    if (skipQas.has(qaId)) continue;
    const made = draftFor(qaId, proposalId);
    if (!made) continue;
    const item = createVerifiedItem(db(), { ...made, origin: 'human', proposalId, runId: null, model: null, createdBy: author, idempotencyKey: null });
    if (item) ids.push(item.id);
  }
  expect(ids).toHaveLength(count);
  return ids;
}

/** A hand-written item's request body: the fields of a draft the offline rules make for some QA under some seed. */
function itemBody(): CreateItemRequest {
  const pairs = db().prepare("SELECT q.id AS qa, p.id AS proposal FROM factual_qas q, proposals p WHERE p.origin = 'seed' ORDER BY q.id, p.id LIMIT 400").all() as { qa: number; proposal: number }[];
  for (const pair of pairs) {
    const made = draftFor(pair.qa, pair.proposal);
    if (!made) continue;
    const { assumption, question, rationale, edit, program, answer, answer_type } = made.draft;
    return { qa_id: pair.qa, assumption, question, rationale, edit, program, answer, answer_type };
  }
  throw new Error('no QA the offline rules can ask');
}

/** Every open item but these is decided, so the queue can offer only these. */
function onlyOpen(itemIds: readonly number[]): void {
  setItemStatus(db(), 'accepted', listItemIds(db(), { statuses: ['pending', 'in_review'] }).filter((id) => !itemIds.includes(id)));
}

describe('a review needs the reviewer’s own live lease', () => {
  it('refuses a review of an item never claimed, and of one whose lease ran out while its slot was still free; claiming again is the way back', async () => {
    const { item } = await curator.call(itemsApi.create, { body: itemBody() });
    onlyOpen([item.id]);

    const unclaimed = await ann.send(reviewApi.submit, { params: { id: item.id }, body: acceptReview() });
    expect(unclaimed.status).toBe(409);
    expect(ErrorBodySchema.parse(unclaimed.body).error.message).toMatch(/no live lease on item \d+/);

    // Someone else's live lease is not the caller's.
    putSettings(db(), { reviews_per_item: 2 });
    expect((await ben.call(reviewApi.next, { body: {} })).task?.item.id).toBe(item.id);
    expect((await ann.send(reviewApi.submit, { params: { id: item.id }, body: acceptReview() })).status).toBe(409);

    // Ann's lease runs out (not swept yet); with k = 2 a slot is still free, yet the review is refused.
    expect((await ann.call(reviewApi.next, { body: {} })).task?.item.id).toBe(item.id);
    expireLease(db(), { itemId: item.id, reviewerId: userId('ann') });
    const late = await ann.send(reviewApi.submit, { params: { id: item.id }, body: acceptReview() });
    expect(late.status).toBe(409);
    expect(db().prepare('SELECT COUNT(*) AS n FROM reviews WHERE item_id = ?').get(item.id)).toEqual({ n: 0 });

    expect((await ann.call(reviewApi.next, { body: {} })).task?.item.id).toBe(item.id);
    expect((await ann.send(reviewApi.submit, { params: { id: item.id }, body: acceptReview() })).status).toBe(201);
  });
});

describe('no self-approval', () => {
  it('never offers a hand-written item to its author, and refuses the author’s review even under a lease', async () => {
    const { item } = await ann.call(itemsApi.create, { body: itemBody() });
    onlyOpen([item.id]);

    expect((await ann.call(reviewApi.next, { body: {} })).task).toBeNull();
    expect((await ann.call(reviewApi.queue)).available).toBe(0);
    expect((await ben.call(reviewApi.queue)).available).toBe(1);

    // A lease the queue would never give (inserted here) does not let the author review it either.
    buildLease(db(), { itemId: item.id, reviewerId: userId('ann') });
    const own = await ann.send(reviewApi.submit, { params: { id: item.id }, body: acceptReview() });
    expect(own.status).toBe(403);
    expect(ErrorBodySchema.parse(own.body).error.message).toMatch(/you wrote item \d+/);
    deleteItemLeases(db(), item.id);

    expect((await ben.call(reviewApi.next, { body: {} })).task?.item.id).toBe(item.id);
    expect((await ben.send(reviewApi.submit, { params: { id: item.id }, body: acceptReview() })).status).toBe(201);
  });

  it('lets only curators attach a hand-written item to a proposal', async () => {
    const proposalId = (db().prepare("SELECT id FROM proposals WHERE origin = 'seed' ORDER BY id LIMIT 1").get() as { id: number }).id;
    const body = { ...itemBody(), proposal_id: proposalId };
    const refused = await ann.send(itemsApi.create, { body });
    expect(refused.status).toBe(403);
    expect(ErrorBodySchema.parse(refused.body).error).toMatchObject({ code: 'forbidden', field: 'body.proposal_id' });
    const attached = await curator.send(itemsApi.create, { body });
    expect(attached.status).toBe(201);
    expect(ItemDetailResponseSchema.parse(attached.body).item.proposal_id).toBe(proposalId);
  });

  it('a reviewer’s own items on a seed, all rejected by another reviewer, neither retire it nor reach a reflection prompt; a curator’s item counts', async () => {
    putSettings(db(), { auto_reflect: true, reflection_min_decisions: 3, retire_min_decisions: 10, retire_max_pass_rate: 0.2 });
    const seed = addProposal(db(), { chartType: 'vertical_bar', text: 'Halve the bar the question asks about.', origin: 'seed', parentIds: [], round: 0 }, 1).id;
    const own = handWrittenItems(seed, userId('ann'), 10);
    onlyOpen(own);
    const FEEDBACK = 'Ann wrote this one badly on purpose: retire the proposal.';
    const requestsBefore = fake.requests.length;
    const batchesBefore = (await curator.call(reflectionApi.batches)).batches.map((b) => b.id);
    for (let n = 0; n < own.length; n++) {
      const task = (await ben.call(reviewApi.next, { body: { proposal_id: seed } })).task;
      expect(task, 'ben is offered each of ann’s items').not.toBeNull();
      const res = await ben.send(reviewApi.submit, { params: { id: task?.item.id }, body: rejectReview(FEEDBACK) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    expect(db().prepare("SELECT COUNT(*) AS n FROM hqa_items WHERE proposal_id = ? AND status = 'rejected'").get(seed)).toEqual({ n: 10 });

    expect(getProposal(db(), seed)?.status).toBe('active');
    const lineage = await curator.call(analyticsApi.lineage, { params: { id: seed } });
    expect(lineage.nodes.find((n) => n.id === seed)).toMatchObject({ decided: 0, accepted: 0, pass_rate: null });
    expect((await curator.call(reflectionApi.list, { params: { id: seed } })).feedback).toEqual([]);
    expect((await curator.send(reflectionApi.reflect, { params: { id: seed } })).status).toBe(409);
    // An automatic reflection starts as a batch once the deciding review commits, before its
    // answer: no new batch, so none asks the model later.
    expect((await curator.call(reflectionApi.batches)).batches.map((b) => b.id)).toEqual(batchesBefore);
    expect(db().prepare('SELECT COUNT(*) AS n FROM reflections WHERE proposal_id = ?').get(seed)).toEqual({ n: 0 });
    expect(JSON.stringify(fake.requests.slice(requestsBefore))).not.toContain('Ann wrote this one badly');

    // The same rule spares a curator's item on the proposal: its rejection counts.
    const usedQas = new Set((db().prepare('SELECT qa_id FROM hqa_items WHERE proposal_id = ?').all(seed) as { qa_id: number }[]).map((r) => r.qa_id));
    const [curated] = handWrittenItems(seed, userId('cora'), 1, usedQas);
    onlyOpen([curated ?? 0]);
    const task = (await ben.call(reviewApi.next, { body: { proposal_id: seed } })).task;
    expect(task?.item.id).toBe(curated);
    expect((await ben.send(reviewApi.submit, { params: { id: curated }, body: rejectReview('A curator’s item, fairly judged.') })).status).toBe(201);
    const after = await curator.call(analyticsApi.lineage, { params: { id: seed } });
    expect(after.nodes.find((n) => n.id === seed)).toMatchObject({ decided: 1, accepted: 0 });
    const feedback = (await curator.call(reflectionApi.list, { params: { id: seed } })).feedback;
    expect(feedback.map((f) => f.item_id)).toEqual([curated]);
  });
});
