import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignmentApi, AssignResponseSchema, QueueResponseSchema as NamedQueueResponseSchema, RetireResponseSchema, UnassignResponseSchema } from '../../shared/api/assignment';
import { itemsApi } from '../../shared/api/items';
import { NextResponseSchema, QueueResponseSchema, reviewApi } from '../../shared/api/review';
import { putSettings } from '../../server/settings/settings-queries';
import type { Endpoint } from '../../shared/api/endpoint';
import { TestClient, type RawInput } from '../support/http-client';
import { acceptReview, generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Assignment (issue 16 point 6): items given to a reviewer or to a named queue are claimed by
 * them first and by nobody else from the general queue; unassigning gives them back; a filter
 * resolves to the ids it matches when assigned; retired items leave review.
 */

let server: TestServer;
let curator: TestClient;
const people: Record<'ann' | 'ben' | 'cid', TestClient> = {} as Record<'ann' | 'ben' | 'cid', TestClient>;
const ids: Record<'ann' | 'ben' | 'cid', number> = { ann: 0, ben: 0, cid: 0 };
let items: number[] = [];

const db = () => server.server.ctx.db;

async function next(client: TestClient): Promise<number | null> {
  const res = await client.send(reviewApi.next, { body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return NextResponseSchema.parse(res.body).task?.item.id ?? null;
}

async function release(client: TestClient, itemId: number) {
  expect((await client.send(reviewApi.release, { params: { id: itemId }, body: {} })).status).toBe(200);
}

async function queueOf(client: TestClient) {
  const res = await client.send(reviewApi.queue);
  expect(res.status).toBe(200);
  return QueueResponseSchema.parse(res.body);
}

async function curatorPost(e: Endpoint, input: RawInput) {
  const res = await curator.send(e, input);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

const assignmentRows = () => db().prepare('SELECT item_id, reviewer_id, queue_id FROM item_assignments ORDER BY item_id').all() as { item_id: number; reviewer_id: number | null; queue_id: number | null }[];
const auditCount = (action: string) => (db().prepare('SELECT COUNT(*) AS n FROM audit_log WHERE action = ?').get(action) as { n: number }).n;

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 12);
  items = (db().prepare('SELECT id FROM hqa_items ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  await server.createUser('cora', 'curator', 'curator-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  for (const name of ['ann', 'ben', 'cid'] as const) {
    await server.createUser(name, 'reviewer', `${name}-password`);
    people[name] = new TestClient(server.url);
    await people[name].login(name, `${name}-password`);
    ids[name] = (db().prepare('SELECT id FROM users WHERE username = ?').get(name) as { id: number }).id;
  }
  putSettings(db(), { reviews_per_item: 1, gold_share: 0 });
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe('assignment', () => {
  it('resolves a filter to the ids it matches at that moment, and unassigns them again', async () => {
    const type = (db().prepare('SELECT c.chart_type AS t FROM hqa_items i JOIN charts c ON c.id = i.chart_id ORDER BY i.id LIMIT 1').get() as { t: string }).t;
    const expected = (db().prepare('SELECT i.id FROM hqa_items i JOIN charts c ON c.id = i.chart_id WHERE c.chart_type = ? ORDER BY i.id').all(type) as { id: number }[]).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(items.length);
    const { assigned } = AssignResponseSchema.parse(await curatorPost(assignmentApi.assign, { body: { target: { filter: { chart_type: type } }, to: { reviewer_id: ids.cid } } }));
    expect(assigned).toBe(expected.length);
    expect(assignmentRows()).toEqual(expected.map((item_id) => ({ item_id, reviewer_id: ids.cid, queue_id: null })));
    expect(auditCount('item.assigned')).toBe(expected.length);
    // The list's `assigned` filter finds them by username, and the page says who has them.
    const listed = await curator.call(itemsApi.list, { query: { assigned: 'cid', page_size: 100 } });
    expect(listed.items.map((i) => i.id).sort((a, b) => a - b)).toEqual(expected);
    expect(listed.assignments.every((a) => a.reviewer === 'cid' && a.queue === null)).toBe(true);
    const { unassigned } = UnassignResponseSchema.parse(await curatorPost(assignmentApi.unassign, { body: { target: { filter: { assigned: 'cid' } } } }));
    expect(unassigned).toBe(expected.length);
    expect(assignmentRows()).toEqual([]);
    expect(auditCount('item.unassigned')).toBe(expected.length);
  });

  it('serves assigned items first, then the queue’s, and keeps them from everyone else', async () => {
    const [low] = items;
    const a1 = items.at(-1)!;
    const a2 = items.at(-2)!;
    const q1 = items.at(-3)!;
    const retiredItem = items.at(-4)!;
    const queue = NamedQueueResponseSchema.parse(await curatorPost(assignmentApi.createQueue, { body: { name: 'night shift' } })).queue;
    await curatorPost(assignmentApi.addMember, { params: { id: queue.id }, body: { user_id: ids.ben } });
    const listedQueues = await curator.call(assignmentApi.queues);
    expect(listedQueues.queues).toEqual([{ id: queue.id, name: 'night shift', members: [{ id: ids.ben, username: 'ben' }], items: 0 }]);
    expect(listedQueues.reviewers.map((r) => r.username)).toEqual(expect.arrayContaining(['ann', 'ben', 'cid']));

    await curatorPost(assignmentApi.assign, { body: { target: { item_ids: [a1, a2] }, to: { reviewer_id: ids.ann } } });
    await curatorPost(assignmentApi.assign, { body: { target: { item_ids: [q1] }, to: { queue_id: queue.id } } });
    expect(RetireResponseSchema.parse(await curatorPost(assignmentApi.retire, { body: { target: { item_ids: [retiredItem] }, reason: 'duplicate chart' } })).retired).toBe(1);
    expect(auditCount('item.retired')).toBe(1);
    const byQueue = await curator.call(itemsApi.list, { query: { assigned: 'queue:night shift' } });
    expect(byQueue.items.map((i) => i.id)).toEqual([q1]);

    expect((await queueOf(people.ann)).assigned).toBe(2);
    expect((await queueOf(people.ben)).assigned).toBe(1);
    expect(await queueOf(people.cid)).toMatchObject({ assigned: 0, available: items.length - 4 });

    // Assigned before queue before general: the general queue alone would give the lowest id.
    expect(await next(people.ann)).toBe(a2);
    await release(people.ann, a2);
    expect(await next(people.ben)).toBe(q1);
    await release(people.ben, q1);
    expect(await next(people.cid)).toBe(low);
    await release(people.cid, low!);

    // cid drains the general queue: never an item reserved for ann or the queue, never the retired one.
    const cidGot: number[] = [];
    for (let id = await next(people.cid); id !== null; id = await next(people.cid)) {
      cidGot.push(id);
      expect((await people.cid.send(reviewApi.submit, { params: { id }, body: acceptReview() })).status).toBe(201);
    }
    expect(cidGot.sort((x, y) => x - y)).toEqual(items.filter((id) => ![a1, a2, q1, retiredItem].includes(id)));

    // Unassigning gives the queue's item back to everyone.
    await curatorPost(assignmentApi.unassign, { body: { target: { item_ids: [q1] } } });
    expect((await queueOf(people.ben)).assigned).toBe(0);
    expect(await next(people.cid)).toBe(q1);
    // ann still gets her own two; ben (who has no assignment left) gets nothing.
    expect(await next(people.ann)).toBe(a2);
    expect(await next(people.ben)).toBeNull();
  });

  it('restores a retired item to review and marks accepted items gold in bulk', async () => {
    const retiredItem = items.at(-4)!;
    await curatorPost(assignmentApi.unretire, { body: { target: { item_ids: [retiredItem] } } });
    expect(await next(people.ben)).toBe(retiredItem);
    const accepted = (db().prepare("SELECT id FROM hqa_items WHERE status = 'accepted' ORDER BY id").all() as { id: number }[]).map((r) => r.id);
    const res = (await curatorPost(assignmentApi.gold, { body: { target: { item_ids: [...accepted, retiredItem] } } })) as { marked: number; skipped: number };
    expect(res).toEqual({ marked: accepted.length, skipped: 1 });
    expect(auditCount('item.gold_marked')).toBe(accepted.length);
  });

  it('refuses assignment to reviewers as curators only', async () => {
    const res = await people.ann.send(assignmentApi.assign, { body: { target: { item_ids: [items[0]] }, to: { reviewer_id: ids.ann } } });
    expect(res.status).toBe(403);
    // Nor may a reviewer learn who else was given which items.
    expect((await people.ann.send(itemsApi.list, { query: { assigned: 'cid' } })).status).toBe(403);
    const own = await people.ann.call(itemsApi.list, { query: { assigned: 'me' } });
    expect(own.assignments).toEqual([]);
  });
});
