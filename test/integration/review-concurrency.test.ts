import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NextResponseSchema, SubmitReviewResponseSchema } from '../../shared/api/review';
import { putSettings } from '../../server/settings/settings-queries';
import { TestClient } from '../support/http-client';
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
          const res = await client.post('/api/review/next', {});
          const task = NextResponseSchema.parse(res.body).task;
          if (!task) return;
          const body = (index + task.item.id) % 3 === 0 ? rejectReview() : acceptReview();
          const submitted = await client.post(`/api/review/items/${task.item.id}`, body);
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
