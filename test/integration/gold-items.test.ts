import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goldApi, GoldStateSchema } from '../../shared/api/gold';
import { NextResponseSchema, reviewApi, type ReviewTask, type SubmitReviewRequest, SubmitReviewResponseSchema } from '../../shared/api/review';
import { TestClient } from '../support/http-client';
import { acceptReview, generateItems, rejectReview } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { settingsApi } from '../../shared/api/settings';
import { archiveSplit, buildUser, dropLeases, rejectOpenItems, setItemStatus } from '../support/factories';

let server: TestServer;
let admin: TestClient;
let curator: TestClient;
const reviewers: Record<'ann' | 'ben' | 'cid' | 'dee', TestClient> = {} as Record<'ann' | 'ben' | 'cid' | 'dee', TestClient>;
/** Items ann accepted; the first with a failed correctness (and its corrected answer). */
const accepted: number[] = [];

const db = () => server.server.ctx.db;

async function settings(patch: Record<string, unknown>) {
  const res = await admin.send(settingsApi.update, { body: patch });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function next(client: TestClient): Promise<{ task: ReviewTask | null; raw: unknown }> {
  const res = await client.send(reviewApi.next, { body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { task: NextResponseSchema.parse(res.body).task, raw: res.body };
}

async function submit(client: TestClient, itemId: number, review: SubmitReviewRequest) {
  const res = await client.send(reviewApi.submit, { params: { id: itemId }, body: review });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return SubmitReviewResponseSchema.parse(res.body);
}

/** Every key anywhere in a JSON value, so a `gold` flag nested in the task would show. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
  return [];
}

const statusOf = (id: number) => (db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(id) as { status: string }).status;
const standingReviews = (id: number) => (db().prepare('SELECT COUNT(*) AS n FROM reviews WHERE item_id = ? AND retracted_at IS NULL').get(id) as { n: number }).n;
const failCorrectness = acceptReview({ criteria: { rationality: { pass: true, note: '' }, correctness: { pass: false, note: 'off by one' }, layout: { pass: true, note: '' } }, corrected_answer: '42' });

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 14);
  await server.createUser('root', 'admin', 'admin-pass-123');
  await server.createUser('cora', 'curator', 'curator-pass-1');
  admin = new TestClient(server.url);
  await admin.login('root', 'admin-pass-123');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  for (const name of ['ann', 'ben', 'cid', 'dee'] as const) {
    await server.createUser(name, 'reviewer', `${name}-password`);
    reviewers[name] = new TestClient(server.url);
    await reviewers[name].login(name, `${name}-password`);
  }
  // ann accepts four items at k = 1 with no gold in play; one of them with a failed correctness.
  await settings({ reviews_per_item: 1, gold_share: 0 });
  for (let i = 0; i < 4; i++) {
    const { task } = await next(reviewers.ann);
    if (!task) throw new Error('the queue ran dry before four items were accepted');
    await submit(reviewers.ann, task.item.id, i === 0 ? failCorrectness : acceptReview());
    accepted.push(task.item.id);
  }
}, 120_000);
afterAll(async () => {
  await server.close();
});

describe('marking gold', () => {
  it('is for curators: reviewers get 403, a non-accepted item 409, and the gold decision is the accepted review', async () => {
    const [first, second, third] = accepted as [number, number, number];
    expect((await reviewers.ben.send(goldApi.mark, { params: { id: first } })).status).toBe(403);
    expect((await reviewers.ben.send(goldApi.unmark, { params: { id: first } })).status).toBe(403);
    expect((await reviewers.ben.send(goldApi.get, { params: { id: first } })).status).toBe(403);
    expect((await reviewers.ben.send(goldApi.calibration)).status).toBe(403);
    const pending = (db().prepare("SELECT id FROM hqa_items WHERE status = 'pending' ORDER BY id LIMIT 1").get() as { id: number }).id;
    expect((await curator.send(goldApi.mark, { params: { id: pending } })).status).toBe(409);
    expect((await curator.send(goldApi.mark, { params: { id: 999999 } })).status).toBe(404);

    const marked = await curator.send(goldApi.mark, { params: { id: first } });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    expect(GoldStateSchema.parse(marked.body)).toMatchObject({ gold: true, marked_by: 'cora', verdicts: { rationality: true, correctness: false, layout: true } });
    for (const id of [second, third]) expect((await curator.send(goldApi.mark, { params: { id } })).status).toBe(200);

    // Unmark and mark again: the state follows.
    const fourth = accepted[3] as number;
    expect((await curator.call(goldApi.mark, { params: { id: fourth } })).gold).toBe(true);
    expect(await curator.call(goldApi.unmark, { params: { id: fourth } })).toMatchObject({ gold: false, verdicts: null });
    expect((await curator.call(goldApi.get, { params: { id: fourth } })).gold).toBe(false);
  });
});

describe('gold in the queue', () => {
  it('at share 1 serves every claim gold until none is left, disguised, and the reviews leave the items accepted', async () => {
    await settings({ gold_share: 1 });
    const gold = accepted.slice(0, 3);
    const counts = db().prepare('SELECT status, n FROM item_status_counts ORDER BY status').all();
    const served: number[] = [];
    const reviews: Record<number, SubmitReviewRequest> = {
      // ben passes correctness on the item whose gold says it failed, and fails layout once.
      [gold[0] as number]: acceptReview(),
      [gold[1] as number]: rejectReview(),
      [gold[2] as number]: acceptReview(),
    };
    for (let i = 0; i < 3; i++) {
      const { task, raw } = await next(reviewers.ben);
      if (!task) throw new Error('no task while gold items were left');
      expect(keysOf(raw).some((k) => k.toLowerCase().includes('gold'))).toBe(false);
      expect(task.item.status).toBe('in_review');
      expect(task.item.final_answer).toBeNull();
      served.push(task.item.id);
      const result = await submit(reviewers.ben, task.item.id, reviews[task.item.id] ?? acceptReview());
      expect(result.item_status).toBe(reviews[task.item.id]?.decision === 'reject' ? 'rejected' : 'accepted');
    }
    expect(served.sort()).toEqual([...gold].sort());
    for (const id of gold) {
      expect(statusOf(id)).toBe('accepted');
      expect(standingReviews(id)).toBe(1); // ann's only
    }
    expect(db().prepare('SELECT status, n FROM item_status_counts ORDER BY status').all()).toEqual(counts);
    // ben's own figures count them like any review (nothing stands still to give gold away).
    expect((await reviewers.ben.call(reviewApi.stats)).me).toMatchObject({ reviews: 3, accepted: 2, rejected: 1 });
    // Exhausted: the next claim is a queue item, and it is not one of the accepted.
    const { task } = await next(reviewers.ben);
    expect(task?.item.status).toBe('in_review');
    expect(accepted).not.toContain(task?.item.id);
    if (task) await reviewers.ben.send(reviewApi.release, { params: { id: task.item.id } });
  });

  it('never serves ann the items she reviewed herself', async () => {
    const { task } = await next(reviewers.ann);
    expect(accepted).not.toContain(task?.item.id);
    if (task) await reviewers.ann.send(reviewApi.release, { params: { id: task.item.id } });
  });

  it('at share 0 serves no gold item', async () => {
    await settings({ gold_share: 0 });
    for (let i = 0; i < 4; i++) {
      const { task } = await next(reviewers.cid);
      if (!task) throw new Error('the queue ran dry');
      expect(accepted).not.toContain(task.item.id);
      await submit(reviewers.cid, task.item.id, acceptReview());
    }
    expect(db().prepare('SELECT COUNT(*) AS n FROM gold_reviews WHERE reviewer_id = (SELECT id FROM users WHERE username = ?)').get('cid')).toEqual({ n: 0 });
  });

  it('lets a gold review be undone like any other: the item is the reviewer’s task again, still disguised', async () => {
    await settings({ gold_share: 1 });
    const { task } = await next(reviewers.dee);
    if (!task) throw new Error('no gold task for dee');
    expect(accepted).toContain(task.item.id);
    const result = await submit(reviewers.dee, task.item.id, acceptReview());
    const again = (await reviewers.dee.call(reviewApi.undo, { params: { id: result.review_id } })).task;
    expect(again.item).toMatchObject({ id: task.item.id, status: 'in_review' });
    expect(statusOf(task.item.id)).toBe('accepted');
    // dee reviews them all, agreeing with gold on every criterion.
    await submit(reviewers.dee, task.item.id, task.item.id === accepted[0] ? failCorrectness : acceptReview());
    for (;;) {
      const { task: t } = await next(reviewers.dee);
      if (!t || !accepted.includes(t.item.id)) {
        if (t) await reviewers.dee.send(reviewApi.release, { params: { id: t.item.id } });
        break;
      }
      await submit(reviewers.dee, t.item.id, t.item.id === accepted[0] ? failCorrectness : acceptReview());
    }
  });
});

describe('gold when the regular queue is done', () => {
  it('counts the gold left in the queue size and serves it without a draw; at share 0 neither', async () => {
    // Nothing left to review but the gold items: every open item set aside for this test.
    dropLeases(db());
    const open = rejectOpenItems(db());
    try {
      await server.createUser('eve', 'reviewer', 'eve-password');
      const eve = new TestClient(server.url);
      await eve.login('eve', 'eve-password');
      const available = async () => (await eve.call(reviewApi.queue)).available;
      await settings({ gold_share: 0 });
      expect(await available()).toBe(0);
      expect((await next(eve)).task).toBeNull();
      // The smallest share: the draw all but never says gold, yet the queue is the gold left.
      await settings({ gold_share: 0.0001 });
      expect(await available()).toBe(3);
      const served: number[] = [];
      for (let left = 3; left > 0; left--) {
        const { task, raw } = await next(eve);
        if (!task) throw new Error(`no task with ${left} gold items left`);
        expect(keysOf(raw).some((k) => k.toLowerCase().includes('gold'))).toBe(false);
        served.push(task.item.id);
        await submit(eve, task.item.id, acceptReview());
        expect(await available()).toBe(left - 1);
      }
      expect(served.sort()).toEqual(accepted.slice(0, 3).sort());
      expect((await next(eve)).task).toBeNull();
    } finally {
      for (const row of open) setItemStatus(db(), row.status, [row.id]);
    }
  });
});

describe('calibration', () => {
  it('gives each reviewer’s agreement with gold per criterion per week and flags those under the threshold', async () => {
    const body = await curator.call(goldApi.calibration);
    expect(body).toMatchObject({ threshold: 0.8, gold_items: 3 });
    const ben = body.reviewers.find((r) => r.reviewer === 'ben');
    const dee = body.reviewers.find((r) => r.reviewer === 'dee');
    // ben: correctness agreed on 2 of 3 (passed the one gold failed), layout on 2 of 3 (failed one gold passed).
    expect(ben?.overall).toEqual({ reviews: 3, rationality: 1, correctness: 2 / 3, layout: 2 / 3 });
    expect(ben?.flagged).toBe(true);
    expect(ben?.weeks).toHaveLength(1);
    expect(ben?.weeks[0]?.week).toMatch(/^\d{4}-W\d{2}$/);
    expect(dee?.overall).toEqual({ reviews: 3, rationality: 1, correctness: 1, layout: 1 });
    expect(dee?.flagged).toBe(false);
    expect(body.reviewers.map((r) => r.reviewer)).not.toContain('cid');

    // The threshold is a setting: at 0.6 ben is no longer flagged.
    await settings({ gold_agreement_threshold: 0.6 });
    const lower = await curator.call(goldApi.calibration);
    expect(lower.reviewers.find((r) => r.reviewer === 'ben')?.flagged).toBe(false);
    await settings({ gold_agreement_threshold: 0.8 });
  });

  it('serves no gold item of an archived split, and serves it again once the split is back', async () => {
    await server.createUser('fay', 'reviewer', 'fay-password');
    const fay = new TestClient(server.url);
    await fay.login('fay', 'fay-password');
    await settings({ gold_share: 1 });
    const gold = (db().prepare('SELECT item_id FROM gold_items').all() as { item_id: number }[]).map((r) => r.item_id);
    expect(gold.length).toBeGreaterThan(0);
    const splits = (db().prepare('SELECT DISTINCT c.split FROM charts c JOIN hqa_items i ON i.chart_id = c.id').all() as { split: string }[]).map((r) => r.split);
    const curatorId = (await buildUser(db(), { role: 'curator' })).id;
    for (const split of splits) archiveSplit(db(), { name: split, archivedBy: curatorId });
    expect((await next(fay)).task).toBeNull();
    for (const split of splits) archiveSplit(db(), { name: split, archivedBy: curatorId, archived: false });
    const { task } = await next(fay);
    expect(gold).toContain(task?.item.id);
  });
});
