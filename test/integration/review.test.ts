import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import {
  NextResponseSchema,
  reviewApi,
  SubmitReviewResponseSchema,
} from '../../shared/api/review';
import { ErrorBodySchema } from '../../shared/errors';
import type { ServerToClientEvents } from '../../shared/events';
import { TestClient } from '../support/http-client';
import { backdateReview, expireLease, requeueEveryItem, setVerifierMatch } from '../support/factories';
import { acceptReview, correctionFor, generateItems, rejectReview } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { onEvent } from '../support/socket-client';
import { settingsApi } from '../../shared/api/settings';


let server: TestServer;
let admin: TestClient;
const reviewers: TestClient[] = [];
let curator: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 40);
  await server.createUser('root', 'admin', 'admin-pass-123');
  await server.createUser('cora', 'curator', 'curator-pass-1');
  admin = new TestClient(server.url);
  await admin.login('root', 'admin-pass-123');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  for (const name of ['ann', 'ben', 'cid']) {
    await server.createUser(name, 'reviewer', `${name}-password`);
    const client = new TestClient(server.url);
    await client.login(name, `${name}-password`);
    reviewers.push(client);
  }
});
afterAll(async () => {
  await server.close();
});

const db = () => server.server.ctx.db;
const reviewer = (i: number) => {
  const client = reviewers[i];
  if (!client) throw new Error(`no reviewer ${i}`);
  return client;
};

async function next(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.send(reviewApi.next, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return NextResponseSchema.parse(res.body).task;
}

async function setK(k: number, rule: 'majority' | 'unanimous' = 'majority') {
  expect((await admin.send(settingsApi.update, { body: { reviews_per_item: k, consensus_rule: rule } })).status).toBe(200);
}

/** Fresh queue state for each test: no leases, every item pending with no standing review. */
beforeEach(() => {
  requeueEveryItem(db());
});

describe('the queue', () => {
  it('leases distinct items to different reviewers and gives the caller its own lease back first', async () => {
    await setK(1);
    const a = await next(reviewer(0));
    const b = await next(reviewer(1));
    expect(a?.item.id).toBeDefined();
    expect(b?.item.id).not.toBe(a?.item.id);
    expect(Date.parse(a?.lease_expires_at ?? '')).toBeGreaterThan(Date.now() + 200_000);
    // A reload: the same item comes back.
    expect((await next(reviewer(0)))?.item.id).toBe(a?.item.id);
    // Prefetch: excluding the item on screen claims a second one; a third claim is refused.
    const prefetched = await next(reviewer(0), { exclude_item_ids: [a?.item.id] });
    expect(prefetched?.item.id).not.toBe(a?.item.id);
    expect(await next(reviewer(0), { exclude_item_ids: [a?.item.id, prefetched?.item.id] })).toBeNull();
    const leased = db().prepare('SELECT COUNT(*) AS n FROM leases').get() as { n: number };
    expect(leased.n).toBe(3);
  });

  it('never gives a reviewer an item twice, and fills k slots with different reviewers', async () => {
    await setK(2);
    const task = await next(reviewer(0));
    const itemId = task?.item.id ?? 0;
    expect((await reviewer(0).send(reviewApi.submit, { params: { id: itemId }, body: acceptReview() })).status).toBe(201);
    const other = await next(reviewer(1));
    expect(other?.item.id).toBe(itemId); // items in review are finished first
    let mine = await next(reviewer(0));
    const seen = new Set<number>();
    while (mine && !seen.has(mine.item.id)) {
      expect(mine.item.id).not.toBe(itemId);
      seen.add(mine.item.id);
      await reviewer(0).send(reviewApi.release, { params: { id: mine.item.id } });
      mine = await next(reviewer(0), { exclude_item_ids: [...seen].slice(-10) });
      if (seen.size > 5) break;
    }
  });

  it('puts mismatches first when asked and honours filters', async () => {
    await setK(1);
    const mismatch = db().prepare('SELECT id FROM hqa_items ORDER BY id DESC LIMIT 1').get() as { id: number };
    setVerifierMatch(db(), mismatch.id, false);
    expect((await next(reviewer(2), { mismatch_first: true }))?.item.id).toBe(mismatch.id);
    setVerifierMatch(db(), mismatch.id, true);
    const pie = await next(reviewer(1), { chart_type: 'pie' });
    if (pie) expect(pie.chart.chart_type).toBe('pie');
  });

  it('returns expired leases to the queue and tells the holder', async () => {
    await setK(1);
    const socket: Socket<ServerToClientEvents> = connectSocket(server.url, { extraHeaders: { cookie: reviewer(0).cookie }, transports: ['websocket'] });
    try {
      await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
      const expired = new Promise<number>((resolve) => onEvent(socket, 'lease.expired', (p) => resolve(p.item_id)));
      const task = await next(reviewer(0));
      expireLease(db(), { itemId: task?.item.id ?? 0 });
      expect(await expired).toBe(task?.item.id);
      const status = db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(task?.item.id) as { status: string };
      expect(status.status).toBe('pending');
      expect((await next(reviewer(1)))?.item.id).toBe(task?.item.id);
      // The first reviewer's late submit is refused: a review needs a live lease.
      const late = await reviewer(0).send(reviewApi.submit, { params: { id: task?.item.id }, body: acceptReview() });
      expect(late.status).toBe(409);
      expect(ErrorBodySchema.parse(late.body).error.message).toMatch(/no live lease/);
    } finally {
      socket.close();
    }
  });

  it('releases on skip', async () => {
    await setK(1);
    const task = await next(reviewer(0));
    expect((await reviewer(0).send(reviewApi.release, { params: { id: task?.item.id } })).status).toBe(200);
    expect(db().prepare('SELECT COUNT(*) AS n FROM leases').get()).toEqual({ n: 0 });
  });
});

describe('reviews and consensus', () => {
  it('refuses an invalid review naming the field', async () => {
    await setK(1);
    const task = await next(reviewer(0));
    const noFail = await reviewer(0).send(reviewApi.submit, { params: { id: task?.item.id }, body: { ...rejectReview(), criteria: acceptReview().criteria } });
    expect(ErrorBodySchema.parse(noFail.body).error.field).toBe('body.criteria');
    const noFeedback = await reviewer(0).send(reviewApi.submit, { params: { id: task?.item.id }, body: rejectReview('') });
    expect(ErrorBodySchema.parse(noFeedback.body).error.field).toBe('body.feedback');
  });

  it('k = 1: an accept with a corrected answer decides the item and keeps the history', async () => {
    await setK(1);
    const task = await next(reviewer(0));
    const id = task?.item.id ?? 0;
    const corrected = correctionFor(task?.item ?? { answer: '', answer_type: 'integer' });
    const res = await reviewer(0).send(reviewApi.submit, { params: { id }, body: acceptReview({ criteria: { ...acceptReview().criteria, correctness: { pass: false, note: 'off by one' } }, corrected_answer: corrected }) });
    expect(SubmitReviewResponseSchema.parse(res.body).item_status).toBe('accepted');
    const row = db().prepare('SELECT status, final_answer, answer FROM hqa_items WHERE id = ?').get(id) as { status: string; final_answer: string; answer: string };
    expect(row).toMatchObject({ status: 'accepted', final_answer: corrected });
    const history = await curator.call(reviewApi.history, { params: { id } });
    expect(history.answers.map((a) => [a.source, a.answer]).at(-1)).toEqual(['review', corrected]);
    expect(history.reviews.find((r) => r.retracted_at === null)?.criteria.correctness).toEqual({ pass: false, note: 'off by one' });
  });

  it('a corrected question is classified again: one that asks another question becomes "different"', async () => {
    await setK(1);
    const task = await next(reviewer(0));
    const id = task?.item.id ?? 0;
    expect(db().prepare('SELECT question_relation FROM hqa_items WHERE id = ?').get(id)).toEqual({ question_relation: 'same' });
    const assumption = (db().prepare('SELECT assumption FROM hqa_items WHERE id = ?').get(id) as { assumption: string }).assumption;
    const res = await reviewer(0).send(reviewApi.submit, { params: { id }, body: acceptReview({ corrected_question: `${assumption} What would be the total of all values?`, corrected_answer: correctionFor(task?.item ?? { answer: '', answer_type: 'integer' }, 1) }) });
    expect(SubmitReviewResponseSchema.parse(res.body).item_status).toBe('accepted');
    expect(db().prepare('SELECT question_relation FROM hqa_items WHERE id = ?').get(id)).toEqual({ question_relation: 'different' });
  });

  it('k = 2 majority: a split goes to adjudication, where a curator decides', async () => {
    await setK(2, 'majority');
    const task = await next(reviewer(0));
    const id = task?.item.id ?? 0;
    await reviewer(0).send(reviewApi.submit, { params: { id }, body: acceptReview() });
    // Blind: the second reviewer's task carries nothing of the first review.
    const second = await next(reviewer(1));
    expect(second?.item.id).toBe(id);
    expect(JSON.stringify(second)).not.toMatch(/accept"|decision|reviewer/);
    const res = await reviewer(1).send(reviewApi.submit, { params: { id }, body: rejectReview() });
    // Blind: the reviewer whose review split the item is not told so.
    expect(SubmitReviewResponseSchema.parse(res.body)).toMatchObject({ item_status: 'submitted', undo_until: null });
    expect(db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(id)).toEqual({ status: 'needs_adjudication' });
    expect((await reviewer(1).send(reviewApi.adjudication)).status).toBe(403);
    const list = await curator.call(reviewApi.adjudication);
    const entry = list.items.find((e) => e.item.id === id);
    expect(entry?.reviews.map((r) => r.decision).sort()).toEqual(['accept', 'reject']);
    const finalAnswer = correctionFor(task?.item ?? { answer: '', answer_type: 'integer' }, 7);
    const decided = await curator.send(reviewApi.adjudicate, { params: { id }, body: { decision: 'accept', final_answer: finalAnswer, note: 'layout is fine' } });
    expect(decided.body).toEqual({ item_status: 'accepted' });
    expect(db().prepare('SELECT final_answer FROM hqa_items WHERE id = ?').get(id)).toEqual({ final_answer: finalAnswer });
  });

  it('k = 3 unanimous: any reject sends the item to adjudication', async () => {
    await setK(3, 'unanimous');
    const task = await next(reviewer(0));
    const id = task?.item.id ?? 0;
    await reviewer(0).send(reviewApi.submit, { params: { id }, body: acceptReview() });
    expect((await next(reviewer(1)))?.item.id).toBe(id);
    await reviewer(1).send(reviewApi.submit, { params: { id }, body: acceptReview() });
    expect((await next(reviewer(2)))?.item.id).toBe(id);
    const res = await reviewer(2).send(reviewApi.submit, { params: { id }, body: rejectReview() });
    expect(SubmitReviewResponseSchema.parse(res.body).item_status).toBe('submitted');
    expect(db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(id)).toEqual({ status: 'needs_adjudication' });
  });

  it('undoes the last decision within the window, and not after it', async () => {
    await setK(1);
    const task = await next(reviewer(0));
    const id = task?.item.id ?? 0;
    const submitted = SubmitReviewResponseSchema.parse(
      (await reviewer(0).send(reviewApi.submit, { params: { id }, body: acceptReview({ corrected_answer: correctionFor(task?.item ?? { answer: '', answer_type: 'integer' }, 9) }) })).body,
    );
    expect(submitted.item_status).toBe('accepted');
    expect((await reviewer(1).send(reviewApi.undo, { params: { id: submitted.review_id } })).status).toBe(404);
    const undone = await reviewer(0).call(reviewApi.undo, { params: { id: submitted.review_id } });
    expect(undone.task.item.id).toBe(id);
    expect(db().prepare('SELECT status, final_answer FROM hqa_items WHERE id = ?').get(id)).toEqual({ status: 'in_review', final_answer: null });
    expect(db().prepare('SELECT retract_reason FROM reviews WHERE id = ?').get(submitted.review_id)).toEqual({ retract_reason: 'undo' });
    // Review again, then let the window pass.
    const again = await reviewer(0).call(reviewApi.submit, { params: { id }, body: rejectReview() });
    backdateReview(db(), again.review_id);
    const late = await reviewer(0).send(reviewApi.undo, { params: { id: again.review_id } });
    expect(late.status).toBe(409);
  });

  it('a release that names the lease of an earlier claim leaves the lease an undo made since', async () => {
    await setK(1);
    const claimed = await next(reviewer(0));
    const id = claimed?.item.id ?? 0;
    const submitted = await reviewer(0).call(reviewApi.submit, { params: { id }, body: acceptReview() });
    const undone = await reviewer(0).call(reviewApi.undo, { params: { id: submitted.review_id } });
    expect(undone.task.lease_token).not.toBe(claimed?.lease_token);
    // A give-back sent for the first claim, arriving after the undo (a page's late request): nothing ends.
    const stale = await reviewer(0).send(reviewApi.release, { params: { id }, body: { lease_token: claimed?.lease_token } });
    expect(stale.status).toBe(200);
    const leases = () => db().prepare('SELECT COUNT(*) AS n FROM leases WHERE item_id = ?').get(id);
    expect(leases()).toEqual({ n: 1 });
    expect(db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(id)).toEqual({ status: 'in_review' });
    // Resumed, the task names the same lease; releasing that one ends it.
    expect((await next(reviewer(0)))?.lease_token).toBe(undone.task.lease_token);
    expect((await reviewer(0).send(reviewApi.release, { params: { id }, body: { lease_token: undone.task.lease_token } })).status).toBe(200);
    expect(leases()).toEqual({ n: 0 });
    expect(db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(id)).toEqual({ status: 'pending' });
    // A token too long to be one is refused, naming the field.
    const bad = await reviewer(0).send(reviewApi.release, { params: { id }, body: { lease_token: 'x'.repeat(65) } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('lease_token');
  });

  it('lets curators re-queue in bulk, keeping the retracted reviews', async () => {
    await setK(1);
    const task = await next(reviewer(0));
    const id = task?.item.id ?? 0;
    await reviewer(0).send(reviewApi.submit, { params: { id }, body: rejectReview() });
    expect((await reviewer(0).send(reviewApi.requeue, { body: { item_ids: [id] } })).status).toBe(403);
    expect((await curator.send(reviewApi.requeue, { body: { item_ids: [id] } })).body).toEqual({ requeued: 1 });
    expect(db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(id)).toEqual({ status: 'pending' });
    const history = await curator.call(reviewApi.history, { params: { id } });
    expect(history.reviews.some((r) => r.retract_reason === 'requeue')).toBe(true);
  });

  it('reports queue counts and stats with agreement', async () => {
    await setK(2);
    for (let n = 0; n < 3; n++) {
      const task = await next(reviewer(0));
      const id = task?.item.id ?? 0;
      await reviewer(0).send(reviewApi.submit, { params: { id }, body: acceptReview() });
      expect((await next(reviewer(1)))?.item.id).toBe(id);
      await reviewer(1).send(reviewApi.submit, { params: { id }, body: n === 0 ? rejectReview() : acceptReview() });
    }
    const queue = await curator.call(reviewApi.queue);
    expect(queue.counts.accepted).toBe(2);
    expect(queue.counts.needs_adjudication).toBe(1);
    // Per-status figures are the staff's: a reviewer gets none (blind review).
    expect((await reviewer(2).call(reviewApi.queue)).counts).toEqual({});
    const stats = await curator.call(reviewApi.stats);
    expect(stats.team?.agreement.layout.items).toBe(3);
    // layout verdicts: [pass, fail], [pass, pass], [pass, pass] → P̄ = 2/3, p = 5/6, Pe = 26/36
    expect(stats.team?.agreement.layout.percent_agreement).toBeCloseTo(66.667, 2);
    expect(stats.team?.agreement.layout.fleiss_kappa).toBeCloseTo((2 / 3 - 26 / 36) / (1 - 26 / 36), 6);
    expect((await reviewer(1).call(reviewApi.stats)).team).toBeNull();
  });
});
