import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignmentApi } from '../../shared/api/assignment';
import type { Endpoint } from '../../shared/api/endpoint';
import { NextResponseSchema, reviewApi, SubmitReviewResponseSchema } from '../../shared/api/review';
import { requeue } from '../../server/review/review-service';
import { putSettings } from '../../server/settings/settings-queries';
import { TestClient, type RawInput } from '../support/http-client';
import { acceptReview, generateItems, rejectReview } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';

const REVIEWERS = 50;
const K = 2;
let server: TestServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 60);
  putSettings(server.server.ctx.db, { reviews_per_item: K, consensus_rule: 'majority' });
  await Promise.all(
    Array.from({ length: REVIEWERS }, async (_, i) => {
      await server.createUser(`r${i}`, 'reviewer', `reviewer-${i}-pass`);
      const client = new TestClient(server.url);
      await client.login(`r${i}`, `reviewer-${i}-pass`);
      clients.push(client);
    }),
  );
}, 120_000);
afterAll(async () => {
  await server.close();
});

describe('50 reviewers at once', () => {
  it('never share a slot, lose no review, and leave exact counts', async () => {
    const db = server.server.ctx.db;
    const items = (db.prepare('SELECT COUNT(*) AS n FROM hqa_items').get() as { n: number }).n;
    const accepted: { reviewer: number; item: number; review: number }[] = [];
    await Promise.all(
      clients.map(async (client, index) => {
        for (;;) {
          const res = await client.send(reviewApi.next, { body: {} });
          const task = NextResponseSchema.parse(res.body).task;
          if (!task) return;
          const body = (index + task.item.id) % 3 === 0 ? rejectReview() : acceptReview();
          const submitted = await client.send(reviewApi.submit, { params: { id: task.item.id }, body });
          expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
          accepted.push({ reviewer: index, item: task.item.id, review: SubmitReviewResponseSchema.parse(submitted.body).review_id });
        }
      }),
    );
    const reviews = db.prepare('SELECT id, item_id, reviewer_id FROM reviews WHERE retracted_at IS NULL').all() as { id: number; item_id: number; reviewer_id: number }[];
    // No review lost: every 201 is a stored row, and nothing else was stored.
    expect(reviews.map((r) => r.id).sort((a, b) => a - b)).toEqual(accepted.map((a) => a.review).sort((a, b) => a - b));
    // Every item got exactly k reviews from k different reviewers.
    expect(reviews).toHaveLength(items * K);
    const perItem = new Map<number, Set<number>>();
    for (const r of reviews) perItem.set(r.item_id, (perItem.get(r.item_id) ?? new Set()).add(r.reviewer_id));
    expect([...perItem.values()].every((set) => set.size === K)).toBe(true);
    const counts = db.prepare('SELECT status, COUNT(*) AS n FROM hqa_items GROUP BY status').all() as { status: string; n: number }[];
    expect(counts.every((c) => ['accepted', 'rejected', 'needs_adjudication'].includes(c.status))).toBe(true);
    expect(counts.reduce((n, c) => n + c.n, 0)).toBe(items);
    expect(db.prepare('SELECT COUNT(*) AS n FROM leases').get()).toEqual({ n: 0 });
  });
});

describe('50 reviewers at once over assigned queues', () => {
  it('never give anyone an item twice, keep queue items to their members, and fill every slot', async () => {
    const db = server.server.ctx.db;
    const itemIds = (db.prepare('SELECT id FROM hqa_items ORDER BY id').all() as { id: number }[]).map((r) => r.id);
    // The same items again, every review retracted by the re-queue: a fresh round for everyone.
    requeue(db, itemIds, null);
    const userId = (name: string) => (db.prepare('SELECT id FROM users WHERE username = ?').get(name) as { id: number }).id;
    await server.createUser('curator', 'curator', 'curator-pass-1');
    const curator = new TestClient(server.url);
    await curator.login('curator', 'curator-pass-1');
    const post = async (e: Endpoint, input: RawInput) => {
      const res = await curator.send(e, input);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      return res.body as { queue: { id: number } };
    };
    // Two named queues of 10 and 20 reviewers, a third of the items each, and ten items for r0 alone.
    const queueA = (await post(assignmentApi.createQueue, { body: { name: 'queue a' } })).queue.id;
    const queueB = (await post(assignmentApi.createQueue, { body: { name: 'queue b' } })).queue.id;
    const membersA = Array.from({ length: 10 }, (_, i) => userId(`r${i + 1}`));
    const membersB = Array.from({ length: 20 }, (_, i) => userId(`r${i + 11}`));
    for (const id of membersA) await post(assignmentApi.addMember, { params: { id: queueA }, body: { user_id: id } });
    for (const id of membersB) await post(assignmentApi.addMember, { params: { id: queueB }, body: { user_id: id } });
    const forA = itemIds.filter((_, i) => i % 3 === 0);
    const forB = itemIds.filter((_, i) => i % 3 === 1);
    const forR0 = itemIds.filter((_, i) => i % 3 === 2).slice(0, 10);
    await post(assignmentApi.assign, { body: { target: { item_ids: forA }, to: { queue_id: queueA } } });
    await post(assignmentApi.assign, { body: { target: { item_ids: forB }, to: { queue_id: queueB } } });
    await post(assignmentApi.assign, { body: { target: { item_ids: forR0 }, to: { reviewer_id: userId('r0') } } });

    await Promise.all(
      clients.map(async (client) => {
        for (;;) {
          const res = await client.send(reviewApi.next, { body: {} });
          const task = NextResponseSchema.parse(res.body).task;
          if (!task) return;
          const submitted = await client.send(reviewApi.submit, { params: { id: task.item.id }, body: acceptReview() });
          expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
        }
      }),
    );
    const reviews = db.prepare('SELECT item_id, reviewer_id FROM reviews WHERE retracted_at IS NULL').all() as { item_id: number; reviewer_id: number }[];
    expect(reviews).toHaveLength(itemIds.length * K);
    const perItem = new Map<number, number[]>();
    for (const r of reviews) perItem.set(r.item_id, [...(perItem.get(r.item_id) ?? []), r.reviewer_id]);
    // No double claim: each item's k reviews are from k different reviewers.
    expect([...perItem.values()].every((reviewers) => new Set(reviewers).size === K)).toBe(true);
    // A queue's items were reviewed by its members only; r0 reviewed each of theirs.
    expect(forA.every((id) => perItem.get(id)?.every((r) => membersA.includes(r)))).toBe(true);
    expect(forB.every((id) => perItem.get(id)?.every((r) => membersB.includes(r)))).toBe(true);
    expect(forR0.every((id) => perItem.get(id)?.includes(userId('r0')))).toBe(true);
    expect(db.prepare('SELECT COUNT(*) AS n FROM leases').get()).toEqual({ n: 0 });
  });
});
