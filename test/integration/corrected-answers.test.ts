import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ItemDetailResponseSchema, itemsApi } from '../../shared/api/items';
import {
  reviewApi,
  type ReviewTask,
  type SubmitReviewRequest,
  SubmitReviewResponseSchema,
} from '../../shared/api/review';
import { ErrorBodySchema } from '../../shared/errors';
import { putSettings } from '../../server/settings/settings-queries';
import { buildItem, dropLeases, rejectOpenItems } from '../support/factories';
import { TestClient } from '../support/http-client';
import { acceptReview } from '../support/review-fixtures';
import { signedIn } from '../support/signed-in-users';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Gold answers need agreement (issue 33, point 2): a reviewer's corrected answer is checked like
 * an item's answer (its type; the verifier's recomputation and the factual label shown with
 * it), shown to the item's next reviewers, and becomes the item's answer only when the
 * accepting reviewers agree on it (or k = 1) or an adjudicator picks it — otherwise the item
 * goes to adjudication with every answer beside the others. A person's answer is compared with
 * the recomputed one at its own precision, never with the model's 5 %.
 */
let server: TestServer;
let cora: TestClient;
let ann: TestClient;
let ben: TestClient;
const db = () => server.server.ctx.db;
let qaId: number;
let factualLabel: string;

/** The verifier recomputes 241 for these items; the model answered 240. */
const ITEM = { program: '241', answer: '240', answer_type: 'integer' as const };

beforeAll(async () => {
  server = await startTestServer();
  for (const [name, role] of [
    ['cora', 'curator'],
    ['ann', 'reviewer'],
    ['ben', 'reviewer'],
  ] as const) {
    await server.createUser(name, role, `${name}-password-1`);
  }
  const signIn = (name: string) => signedIn(server, name, `${name}-password-1`);
  [cora, ann, ben] = (await Promise.all(['cora', 'ann', 'ben'].map(signIn))) as [TestClient, TestClient, TestClient];
  ({ id: qaId, label: factualLabel } = db()
    .prepare('SELECT q.id, q.label FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.data_table IS NOT NULL AND q.group_id IS NULL ORDER BY q.id LIMIT 1')
    .get() as { id: number; label: string });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  dropLeases(db());
  rejectOpenItems(db());
  putSettings(db(), { reviews_per_item: 2, consensus_rule: 'majority', gold_share: 0, auto_reflect: false });
});

const row = (id: number) => db().prepare('SELECT status, final_answer, answer_type FROM hqa_items WHERE id = ?').get(id) as { status: string; final_answer: string | null; answer_type: string };

/** An accept that fails correctness and gives `answer` as the item's answer. */
const correcting = (answer: string): SubmitReviewRequest =>
  acceptReview({ criteria: { ...acceptReview().criteria, correctness: { pass: false, note: 'the answer is off' } }, corrected_answer: answer });

async function claim(client: TestClient): Promise<ReviewTask> {
  const { task } = await client.call(reviewApi.next, { body: {} });
  if (!task) throw new Error('the queue is empty');
  return task;
}

async function submit(client: TestClient, itemId: number, review: SubmitReviewRequest) {
  const res = await client.send(reviewApi.submit, { params: { id: itemId }, body: review });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return SubmitReviewResponseSchema.parse(res.body);
}

/** ann and then ben review a new item, each with their review; the item's id. */
async function reviewedByBoth(annReview: SubmitReviewRequest, benReview: SubmitReviewRequest): Promise<number> {
  const item = buildItem(db(), { qaId, draft: ITEM });
  expect((await claim(ann)).item.id).toBe(item);
  await submit(ann, item, annReview);
  expect((await claim(ben)).item.id).toBe(item);
  await submit(ben, item, benReview);
  return item;
}

describe('a corrected answer is checked like an item’s answer', () => {
  it('refuses a correction of the wrong type with a 400 naming the field and the item, storing nothing; a number is taken', async () => {
    putSettings(db(), { reviews_per_item: 1 });
    const item = buildItem(db(), { qaId, draft: ITEM });
    expect((await claim(ann)).item.id).toBe(item);
    for (const wrong of ['not a number at all', 'Yes', '241 million']) {
      const refused = await ann.send(reviewApi.submit, { params: { id: item }, body: correcting(wrong) });
      expect(refused.status).toBe(400);
      const { error } = ErrorBodySchema.parse(refused.body);
      expect(error.field).toBe('body.corrected_answer');
      expect(error.message).toContain(`item ${item}`);
      expect(error.message).toContain('must be a number');
    }
    expect(db().prepare('SELECT COUNT(*) AS n FROM reviews WHERE item_id = ?').get(item)).toEqual({ n: 0 });
    // The lease is kept: the reviewer corrects the correction and submits.
    expect((await submit(ann, item, correcting('241'))).item_status).toBe('accepted');
    expect(row(item)).toEqual({ status: 'accepted', final_answer: '241', answer_type: 'integer' });
  });

  it('refuses an adjudicator’s final answer of the wrong type too', async () => {
    const item = await reviewedByBoth(correcting('241'), correcting('242'));
    const refused = await cora.send(reviewApi.adjudicate, { params: { id: item }, body: { decision: 'accept', final_answer: 'not a number at all' } });
    expect(refused.status).toBe(400);
    expect(ErrorBodySchema.parse(refused.body).error.field).toBe('body.final_answer');
    expect(row(item).status).toBe('needs_adjudication');
  });

  it('shows the next reviewer the proposed answer with the verifier’s recomputation at its precision and the factual label', async () => {
    const item = buildItem(db(), { qaId, draft: ITEM });
    expect((await claim(ann)).item.id).toBe(item);
    await submit(ann, item, correcting('241.0'));
    const task = await claim(ben);
    expect(task.item.id).toBe(item);
    expect(task.proposed_answers).toEqual([{ answer: '241.0', answer_type: 'decimal', recomputed_answer: '241', matches_recomputed: true, is_factual_label: factualLabel === '241' }]);
    expect((await ben.send(reviewApi.release, { params: { id: item } })).status).toBe(200);
  });
});

describe('a corrected answer becomes the item’s answer only by agreement', () => {
  it('two accepting reviewers giving the same correction: accepted with it', async () => {
    const item = await reviewedByBoth(correcting('241'), correcting('241.0'));
    expect(row(item)).toMatchObject({ status: 'accepted', final_answer: '241' });
    const history = await cora.call(reviewApi.history, { params: { id: item } });
    expect(history.answers.at(-1)).toMatchObject({ source: 'review', answer: '241' });
  });

  it('two accepting reviewers giving different corrections: adjudication, with both answers checked beside the item’s', async () => {
    const item = await reviewedByBoth(correcting('999'), correcting('241'));
    expect(row(item)).toMatchObject({ status: 'needs_adjudication', final_answer: null });
    const list = await cora.call(reviewApi.adjudication);
    const entry = list.items.find((e) => e.item.id === item);
    expect(entry?.answers).toEqual([
      { answer: '240', answer_type: 'integer', recomputed_answer: '241', matches_recomputed: false, is_factual_label: factualLabel === '240', source: 'item', reviewers: [] },
      { answer: '999', answer_type: 'integer', recomputed_answer: '241', matches_recomputed: false, is_factual_label: factualLabel === '999', source: 'review', reviewers: ['ann'] },
      { answer: '241', answer_type: 'integer', recomputed_answer: '241', matches_recomputed: true, is_factual_label: factualLabel === '241', source: 'review', reviewers: ['ben'] },
    ]);
    // The adjudicator picks one: it becomes the answer.
    expect((await cora.send(reviewApi.adjudicate, { params: { id: item }, body: { decision: 'accept', final_answer: '241' } })).body).toEqual({ item_status: 'accepted' });
    expect(row(item)).toMatchObject({ status: 'accepted', final_answer: '241' });
  });

  it('one reviewer’s correction and another’s accept of the answer as it is: adjudication, not the correction', async () => {
    const item = await reviewedByBoth(correcting('999'), acceptReview());
    expect(row(item)).toMatchObject({ status: 'needs_adjudication', final_answer: null });
    const entry = (await cora.call(reviewApi.adjudication)).items.find((e) => e.item.id === item);
    expect(entry?.answers.map((a) => [a.answer, a.reviewers])).toEqual([
      ['240', ['ben']],
      ['999', ['ann']],
    ]);
  });

  it('both accepting the answer as it is: accepted, the answer unchanged', async () => {
    const item = await reviewedByBoth(acceptReview(), acceptReview());
    expect(row(item)).toMatchObject({ status: 'accepted', final_answer: null });
  });
});

describe('a person’s answer is compared at its own precision', () => {
  it('a hand-written item answering 400 where the verifier computes 418.8 does not match; 419 does', async () => {
    const write = async (answer: string) => {
      const res = await cora.send(itemsApi.create, { body: {
        qa_id: qaId,
        assumption: 'Suppose the value were 418.8.',
        question: 'Suppose the value were 418.8. What would the value be?',
        rationale: 'Written by hand.',
        edit: null,
        program: '418.8',
        answer,
        answer_type: 'integer',
      } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return ItemDetailResponseSchema.parse(res.body).item;
    };
    const off = await write('400');
    expect(off.verifier).toMatchObject({ recomputed_answer: '418.8', match: false, match_rule: 'precision' });
    expect(off.verifier_match).toBe(false);
    const close = await write('419');
    expect(close.verifier).toMatchObject({ match: true, match_rule: 'precision' });
  });
});
