import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assignmentApi, DeleteQueueResponseSchema, ItemAssignmentResponseSchema, QueueResponseSchema as NamedQueueResponseSchema } from '../../shared/api/assignment';
import { ErrorBodySchema } from '../../shared/errors';
import { ItemListResponseSchema, itemsApi } from '../../shared/api/items';
import { NextResponseSchema, reviewApi } from '../../shared/api/review';
import { UserListResponseSchema, usersApi } from '../../shared/api/users';
import { putSettings } from '../../server/settings/settings-queries';
import { TestClient } from '../support/http-client';
import { acceptReview, generateItems } from '../support/review-fixtures';
import { connectAs, nextEvent, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 16 leftovers of assignment: named queues are renamed (names stay unique) and deleted
 * (their items go back to the general queue, nothing else is deleted, one audit entry with the
 * count, `assignment.changed` told); the Item page reads one item's assignment (curators only:
 * blind review); disabling a user unassigns the items assigned to them personally, in the same
 * transaction, so another reviewer claims them from the general queue.
 */

let server: TestServer;
let curator: TestClient;
let admin: TestClient;
const people: Record<'ann' | 'ben' | 'cid', TestClient> = {} as Record<'ann' | 'ben' | 'cid', TestClient>;
const ids: Record<'ann' | 'ben' | 'cid' | 'cora', number> = { ann: 0, ben: 0, cid: 0, cora: 0 };
let items: number[] = [];
const sockets: TestSocket[] = [];

const db = () => server.server.ctx.db;
const userId = (name: string) => (db().prepare('SELECT id FROM users WHERE username = ?').get(name) as { id: number }).id;

async function ok(res: Promise<{ status: number; body: unknown }>): Promise<unknown> {
  const { status, body } = await res;
  expect(status, JSON.stringify(body)).toBeLessThan(300);
  return body;
}

async function next(client: TestClient): Promise<number | null> {
  return NextResponseSchema.parse(await ok(client.send(reviewApi.next, { body: {} }))).task?.item.id ?? null;
}

async function createQueue(name: string) {
  return NamedQueueResponseSchema.parse(await ok(curator.send(assignmentApi.createQueue, { body: { name } }))).queue;
}

const auditDetails = (action: string) =>
  (db().prepare('SELECT details FROM audit_log WHERE action = ? ORDER BY id').all(action) as { details: string }[]).map((row) => JSON.parse(row.details) as Record<string, unknown>);

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 10);
  items = (db().prepare('SELECT id FROM hqa_items ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('ada', 'admin', 'admin-pass-12');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  admin = new TestClient(server.url);
  await admin.login('ada', 'admin-pass-12');
  ids.cora = userId('cora');
  for (const name of ['ann', 'ben', 'cid'] as const) {
    await server.createUser(name, 'reviewer', `${name}-password`);
    people[name] = new TestClient(server.url);
    await people[name].login(name, `${name}-password`);
    ids[name] = userId(name);
  }
  putSettings(db(), { reviews_per_item: 1, gold_share: 0 });
}, 60_000);
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await server.close();
});

describe('renaming a queue', () => {
  it('renames, keeps names unique (409 naming the clash) and tells open pages', async () => {
    const night = await createQueue('night shift');
    const bars = await createQueue('bar charts');
    await ok(curator.send(assignmentApi.assign, { body: { target: { item_ids: [items[0]] }, to: { queue_id: bars.id } } }));

    const clash = await curator.send(assignmentApi.renameQueue, { params: { id: bars.id }, body: { name: 'Night Shift' } });
    expect(clash.status).toBe(409);
    const error = ErrorBodySchema.parse(clash.body).error;
    expect(error).toMatchObject({ code: 'conflict', field: 'name' });
    expect(error.message).toContain("'Night Shift'");
    expect(db().prepare('SELECT name FROM review_queues WHERE id = ?').get(bars.id)).toEqual({ name: 'bar charts' });

    // Its own name in another case is a rename, not a clash.
    expect(NamedQueueResponseSchema.parse(await ok(curator.send(assignmentApi.renameQueue, { params: { id: night.id }, body: { name: 'Night Shift' } }))).queue.name).toBe('Night Shift');

    const watcher = await connectAs(server.url, people.cid);
    sockets.push(watcher);
    const told = nextEvent(watcher, 'assignment.changed');
    const renamed = NamedQueueResponseSchema.parse(await ok(curator.send(assignmentApi.renameQueue, { params: { id: bars.id }, body: { name: 'weekend' } }))).queue;
    expect(renamed).toMatchObject({ id: bars.id, name: 'weekend', items: 1 });
    expect(await told).toEqual({ items: 1 });
    expect(auditDetails('queue.renamed')).toEqual([
      { from: 'night shift', to: 'Night Shift' },
      { from: 'bar charts', to: 'weekend' },
    ]);
    // The item's assignment follows the queue: the list finds it under the new name.
    const listed = ItemListResponseSchema.parse(await ok(curator.send(itemsApi.list, { query: { assigned: 'queue:weekend' } })));
    expect(listed.items.map((i) => i.id)).toEqual([items[0]]);
  });

  it('refuses reviewers, an unknown queue and an empty name', async () => {
    const queue = db().prepare("SELECT id FROM review_queues WHERE name = 'weekend'").get() as { id: number };
    expect((await people.ann.send(assignmentApi.renameQueue, { params: { id: queue.id }, body: { name: 'mine' } })).status).toBe(403);
    expect((await people.ann.send(assignmentApi.deleteQueue, { params: { id: queue.id } })).status).toBe(403);
    expect((await curator.send(assignmentApi.renameQueue, { params: { id: 999999 }, body: { name: 'ghost' } })).status).toBe(404);
    expect((await curator.send(assignmentApi.deleteQueue, { params: { id: 999999 } })).status).toBe(404);
    const empty = await curator.send(assignmentApi.renameQueue, { params: { id: queue.id }, body: { name: '  ' } });
    expect(empty.status).toBe(400);
    expect(ErrorBodySchema.parse(empty.body).error.field).toBe('body.name');
  });
});

describe('deleting a queue', () => {
  it('unassigns its items in one transaction with one audit entry; items, reviews and members’ accounts stay; the general queue serves them', async () => {
    const queue = await createQueue('to delete');
    await ok(curator.send(assignmentApi.addMember, { params: { id: queue.id }, body: { user_id: ids.ann } }));
    const mine = items.slice(-3);
    await ok(curator.send(assignmentApi.assign, { body: { target: { item_ids: mine }, to: { queue_id: queue.id } } }));
    // ann (a member) reviews one of them: the review must survive the queue.
    const reviewed = await next(people.ann);
    expect(mine).toContain(reviewed);
    expect((await people.ann.send(reviewApi.submit, { params: { id: reviewed }, body: acceptReview() })).status).toBe(201);
    const reviewsBefore = (db().prepare('SELECT COUNT(*) AS n FROM reviews').get() as { n: number }).n;
    const itemsBefore = (db().prepare('SELECT COUNT(*) AS n FROM hqa_items').get() as { n: number }).n;

    const watcher = await connectAs(server.url, people.cid);
    sockets.push(watcher);
    const told = nextEvent(watcher, 'assignment.changed', (payload) => (payload as { items: number }).items === 3);
    expect(DeleteQueueResponseSchema.parse(await ok(curator.send(assignmentApi.deleteQueue, { params: { id: queue.id } })))).toEqual({ unassigned: 3 });
    expect(await told).toEqual({ items: 3 });

    expect(db().prepare('SELECT COUNT(*) AS n FROM review_queues WHERE id = ?').get(queue.id)).toEqual({ n: 0 });
    expect(db().prepare('SELECT COUNT(*) AS n FROM review_queue_members WHERE queue_id = ?').get(queue.id)).toEqual({ n: 0 });
    expect(db().prepare('SELECT COUNT(*) AS n FROM item_assignments WHERE item_id IN (SELECT value FROM json_each(?))').get(JSON.stringify(mine))).toEqual({ n: 0 });
    expect((db().prepare('SELECT COUNT(*) AS n FROM reviews').get() as { n: number }).n).toBe(reviewsBefore);
    expect((db().prepare('SELECT COUNT(*) AS n FROM hqa_items').get() as { n: number }).n).toBe(itemsBefore);
    expect(db().prepare("SELECT status FROM hqa_items WHERE id = ?").get(reviewed)).toEqual({ status: 'accepted' });
    expect(auditDetails('queue.deleted')).toEqual([{ name: 'to delete', members: 1, items_unassigned: 3 }]);
    // Deleting it again: it is gone.
    expect((await curator.send(assignmentApi.deleteQueue, { params: { id: queue.id } })).status).toBe(404);

    // cid, who was never in the queue, now claims its two unreviewed items from the general queue.
    const cidGot: number[] = [];
    for (let id = await next(people.cid); id !== null; id = await next(people.cid)) {
      cidGot.push(id);
      expect((await people.cid.send(reviewApi.submit, { params: { id }, body: acceptReview() })).status).toBe(201);
    }
    expect(cidGot).toEqual(expect.arrayContaining(mine.filter((id) => id !== reviewed)));
    expect(cidGot).not.toContain(reviewed);
  });
});

describe('one transaction', () => {
  /** Makes the audit entry of `action` fail, so the change it records must roll back with it. */
  function failAudit(action: string): () => void {
    db().exec(`CREATE TEMP TRIGGER fail_audit BEFORE INSERT ON main.audit_log WHEN NEW.action = '${action}' BEGIN SELECT RAISE(ABORT, 'audit refused'); END`);
    return () => db().exec('DROP TRIGGER temp.fail_audit');
  }

  it('a queue whose delete fails keeps its items assigned', async () => {
    const queue = await createQueue('kept');
    await ok(curator.send(assignmentApi.assign, { body: { target: { item_ids: [items[1]] }, to: { queue_id: queue.id } } }));
    const restore = failAudit('queue.deleted');
    try {
      expect((await curator.send(assignmentApi.deleteQueue, { params: { id: queue.id } })).status).toBe(500);
    } finally {
      restore();
    }
    expect(db().prepare('SELECT queue_id FROM item_assignments WHERE item_id = ?').get(items[1])).toEqual({ queue_id: queue.id });
    expect(db().prepare('SELECT name FROM review_queues WHERE id = ?').get(queue.id)).toEqual({ name: 'kept' });
    expect(DeleteQueueResponseSchema.parse(await ok(curator.send(assignmentApi.deleteQueue, { params: { id: queue.id } })))).toEqual({ unassigned: 1 });
  });

  it('a user whose disable fails keeps their assignments (and may still log in)', async () => {
    await ok(curator.send(assignmentApi.assign, { body: { target: { item_ids: [items[1]] }, to: { reviewer_id: ids.cid } } }));
    const restore = failAudit('user.disabled');
    try {
      expect((await admin.send(usersApi.disable, { params: { id: ids.cid }, body: {} })).status).toBe(500);
    } finally {
      restore();
    }
    expect(db().prepare('SELECT reviewer_id FROM item_assignments WHERE item_id = ?').get(items[1])).toEqual({ reviewer_id: ids.cid });
    expect(db().prepare('SELECT disabled_at FROM users WHERE id = ?').get(ids.cid)).toEqual({ disabled_at: null });
    await ok(curator.send(assignmentApi.unassign, { body: { target: { item_ids: [items[1]] } } }));
  });
});

describe("an item's assignment on the Item page", () => {
  it('says to whom, by whom and when, to curators only', async () => {
    const [item] = items;
    // items[0] is in the 'weekend' queue from the rename test.
    const inQueue = ItemAssignmentResponseSchema.parse(await ok(curator.send(assignmentApi.itemAssignment, { params: { id: item } }))).assignment;
    expect(inQueue).toMatchObject({ reviewer: null, queue: { name: 'weekend' }, assigned_by: 'cora' });

    await ok(curator.send(assignmentApi.assign, { body: { target: { item_ids: [item] }, to: { reviewer_id: ids.ann } } }));
    const toAnn = ItemAssignmentResponseSchema.parse(await ok(curator.send(assignmentApi.itemAssignment, { params: { id: item } }))).assignment;
    expect(toAnn).toMatchObject({ reviewer: { id: ids.ann, username: 'ann' }, queue: null, assigned_by: 'cora' });
    expect(Number.isNaN(Date.parse(toAnn?.assigned_at ?? ''))).toBe(false);

    // Blind review: neither the assignee nor another reviewer may ask.
    expect((await people.ann.send(assignmentApi.itemAssignment, { params: { id: item } })).status).toBe(403);
    expect((await people.ben.send(assignmentApi.itemAssignment, { params: { id: item } })).status).toBe(403);

    await ok(curator.send(assignmentApi.unassign, { body: { target: { item_ids: [item] } } }));
    expect(ItemAssignmentResponseSchema.parse(await ok(curator.send(assignmentApi.itemAssignment, { params: { id: item } })))).toEqual({ assignment: null });
    expect((await curator.send(assignmentApi.itemAssignment, { params: { id: 999999 } })).status).toBe(404);
  });
});

describe('disabling a user', () => {
  it('unassigns the items assigned to them personally, with the count in the list and the audit entry; another reviewer claims them', async () => {
    // cid reviewed the general queue above: fresh items to assign.
    await generateItems(server, 4);
    expect(db().prepare('SELECT COUNT(*) AS n FROM item_assignments').get()).toEqual({ n: 0 });
    const open = (db().prepare("SELECT id FROM hqa_items WHERE status = 'pending' ORDER BY id").all() as { id: number }[]).map((r) => r.id);
    expect(open.length).toBeGreaterThanOrEqual(4);
    const bens = open.slice(0, 2);
    const queue = await createQueue('ben’s queue');
    await ok(curator.send(assignmentApi.addMember, { params: { id: queue.id }, body: { user_id: ids.ben } }));
    await ok(curator.send(assignmentApi.assign, { body: { target: { item_ids: bens }, to: { reviewer_id: ids.ben } } }));
    await ok(curator.send(assignmentApi.assign, { body: { target: { item_ids: [open[2]] }, to: { queue_id: queue.id } } }));

    const listed = UserListResponseSchema.parse(await ok(admin.send(usersApi.list))).users;
    expect(listed.find((u) => u.username === 'ben')?.assigned_items).toBe(2);
    expect(listed.find((u) => u.username === 'cid')?.assigned_items).toBe(0);

    // Before: ben's items are kept from cid, who is served the lowest item nobody reserved.
    const first = await next(people.cid);
    expect(bens).not.toContain(first);
    expect((await people.cid.send(reviewApi.release, { params: { id: first }, body: {} })).status).toBe(200);

    const watcher = await connectAs(server.url, people.cid);
    sockets.push(watcher);
    const told = nextEvent(watcher, 'assignment.changed', (payload) => (payload as { items: number }).items === 2);
    const disabled = (await ok(admin.send(usersApi.disable, { params: { id: ids.ben }, body: {} }))) as { user: { assigned_items: number; disabled_at: string | null } };
    expect(disabled.user).toMatchObject({ assigned_items: 0 });
    expect(disabled.user.disabled_at).not.toBeNull();
    expect(await told).toEqual({ items: 2 });
    expect(db().prepare('SELECT COUNT(*) AS n FROM item_assignments WHERE reviewer_id = ?').get(ids.ben)).toEqual({ n: 0 });
    // The queue's assignment is the queue's, not ben's: it stays.
    expect(db().prepare('SELECT queue_id FROM item_assignments WHERE item_id = ?').get(open[2])).toEqual({ queue_id: queue.id });
    expect(auditDetails('user.disabled').at(-1)).toEqual({ revoked_sessions: 1, items_unassigned: 2 });

    // cid now claims ben's two items (the lowest ids) from the general queue, first.
    expect(await next(people.cid)).toBe(bens[0]);
    expect((await people.cid.send(reviewApi.submit, { params: { id: bens[0] }, body: acceptReview() })).status).toBe(201);
    expect(await next(people.cid)).toBe(bens[1]);
  });
});
