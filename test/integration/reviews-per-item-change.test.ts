import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditListResponseSchema } from '../../shared/api/audit';
import { auditApi } from '../../shared/api/audit';
import { fillPath, queryString } from '../../shared/api/endpoint';
import { reviewApi, NextResponseSchema, SubmitReviewResponseSchema, type ReviewTask } from '../../shared/api/review';
import { settingsApi, SettingsResponseSchema } from '../../shared/api/settings';
import { ErrorBodySchema } from '../../shared/errors';
import { ServerEventSchemas } from '../../shared/events';
import { putSettings } from '../../server/settings/settings-queries';
import { buildItem, dropLeases, rejectOpenItems } from '../support/factories';
import type { TestClient } from '../support/http-client';
import { acceptReview, rejectReview } from '../support/review-fixtures';
import { connectAs, nextEvent, type TestSocket } from '../support/socket-client';
import { SignedInUsers, type SignedInUser } from '../support/signed-in-users';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 35 point 7: changing the reviews per item (k) brings the items in review in line with it
 * at once. Lowering k decides every item whose standing reviews now reach it, by the rule a
 * submit uses, and ends its leases; a holder's next submit says why (not a 409 "already
 * accepted" they would retry), their next claim gives them another item, and nothing is left in
 * review with enough reviews to be decided. Raising k leaves decisions as they were.
 */
let server: TestServer;
let users: SignedInUsers;
let admin: SignedInUser;
let ann: SignedInUser;
let ben: SignedInUser;
let cid: SignedInUser;
const sockets: TestSocket[] = [];
const db = () => server.server.ctx.db;
let qaIds: number[] = [];

beforeAll(async () => {
  server = await startTestServer();
  users = new SignedInUsers(server);
  admin = await users.create('admin');
  ann = await users.create('reviewer');
  ben = await users.create('reviewer');
  cid = await users.create('reviewer');
  qaIds = (
    db().prepare('SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.data_table IS NOT NULL AND q.group_id IS NULL ORDER BY q.id LIMIT 6').all() as { id: number }[]
  ).map((r) => r.id);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
});
beforeEach(() => {
  putSettings(db(), { reviews_per_item: 2, consensus_rule: 'majority', gold_share: 0, auto_reflect: false });
});

/** `count` new items, the only open ones: earlier tests' open items are set aside as decided. */
function freshItems(count: number): number[] {
  rejectOpenItems(db());
  dropLeases(db());
  return Array.from({ length: count }, (_, n) => buildItem(db(), { qaId: qaIds[n % qaIds.length] ?? 0 }));
}

async function claim(client: TestClient): Promise<ReviewTask | null> {
  const res = await client.post(reviewApi.next.path, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return NextResponseSchema.parse(res.body).task;
}

async function claimId(client: TestClient): Promise<number> {
  const task = await claim(client);
  if (!task) throw new Error('the queue is empty');
  return task.item.id;
}

const submitPath = (id: number) => fillPath(reviewApi.submit.path, { id });

async function setK(k: number): Promise<void> {
  const res = await admin.client.patch(settingsApi.update.path, { reviews_per_item: k });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(SettingsResponseSchema.parse(res.body).settings.reviews_per_item).toBe(k);
}

async function socketOf(user: SignedInUser): Promise<TestSocket> {
  const socket = await connectAs(server.url, user.client);
  sockets.push(socket);
  return socket;
}

const statusOf = (id: number) => (db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(id) as { status: string }).status;
const leaseHolders = (id: number) => (db().prepare('SELECT reviewer_id FROM leases WHERE item_id = ? ORDER BY reviewer_id').all(id) as { reviewer_id: number }[]).map((r) => r.reviewer_id);
/** Items in review whose standing reviews reach `k`: what must never be left after a change of k. */
const stuckAt = (k: number) =>
  (
    db()
      .prepare("SELECT i.id FROM hqa_items i WHERE i.status = 'in_review' AND (SELECT COUNT(*) FROM reviews r WHERE r.item_id = i.id AND r.retracted_at IS NULL) >= ?")
      .all(k) as { id: number }[]
  ).map((r) => r.id);

describe('lowering k', () => {
  it('decides an item whose standing review now reaches k; its lease holder is told why, and claims the next item', async () => {
    const [item, other] = freshItems(2) as [number, number];
    // k = 2: ann's review stands, the item waits in review for a second; ben holds its other slot.
    expect(await claimId(ann.client)).toBe(item);
    const first = await ann.client.post(submitPath(item), acceptReview());
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(SubmitReviewResponseSchema.parse(first.body).item_status).toBe('submitted');
    expect(await claimId(ben.client)).toBe(item);
    expect(statusOf(item)).toBe('in_review');

    const benSocket = await socketOf(ben);
    const curatorView = await socketOf(admin);
    const expired = nextEvent(benSocket, 'lease.expired', (p) => ServerEventSchemas['lease.expired'].parse(p).item_id === item);
    const decided = nextEvent(curatorView, 'item.decided', (p) => ServerEventSchemas['item.decided'].parse(p).item_id === item);

    await setK(1);

    // Decided by the consensus rule over the one standing review (an accept), in the settings' transaction.
    expect(statusOf(item)).toBe('accepted');
    expect(leaseHolders(item)).toEqual([]);
    expect(stuckAt(1)).toEqual([]);
    expect(ServerEventSchemas['lease.expired'].parse(await expired)).toEqual({ item_id: item, reason: 'decided_by_k_change' });
    expect(ServerEventSchemas['item.decided'].parse(await decided)).toEqual({ item_id: item, status: 'accepted' });

    // Ben's review of it is refused with a code and a message saying why — the same on a second try.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await ben.client.post(submitPath(item), acceptReview());
      expect(refused.status).toBe(409);
      const { error } = ErrorBodySchema.parse(refused.body);
      expect(error.code).toBe('lease_ended');
      expect(error.message).toMatch(new RegExp(`item ${item} was decided without your review`));
      expect(error.message).toMatch(/reviews per item \(k\) changed from 2 to 1/);
      expect(error.message).toMatch(/claim the next item/);
    }
    // A renewal of the ended lease says the same.
    const renewed = await ben.client.post(fillPath(reviewApi.renew.path, { id: item }));
    expect(ErrorBodySchema.parse(renewed.body).error.code).toBe('lease_ended');
    // His claim gives him the next item, not the decided one back.
    expect(await claimId(ben.client)).toBe(other);

    const audit = await admin.client.get(`${auditApi.list.path}${queryString({ action: 'item.decided', target_id: String(item) })}`);
    const [entry] = AuditListResponseSchema.parse(audit.body).entries;
    expect(entry).toMatchObject({ actor_id: admin.id, target_type: 'item', details: { cause: 'reviews_per_item_changed', k_from: 2, k_to: 1, item_status: 'accepted' } });
  });

  it('decides by the rule a submit uses: a tie under majority goes to adjudication', async () => {
    putSettings(db(), { reviews_per_item: 3 });
    const [item] = freshItems(1) as [number];
    for (const [user, review] of [
      [ann, acceptReview()],
      [ben, rejectReview()],
    ] as const) {
      expect(await claimId(user.client)).toBe(item);
      expect((await user.client.post(submitPath(item), review)).status).toBe(201);
    }
    expect(await claimId(cid.client)).toBe(item);
    await setK(2);
    expect(statusOf(item)).toBe('needs_adjudication');
    expect(stuckAt(2)).toEqual([]);
    const refused = await cid.client.post(submitPath(item), acceptReview());
    expect(ErrorBodySchema.parse(refused.body).error.code).toBe('lease_ended');
  });

  it('ends the newest lease on a slot k no longer has; the earlier claimant still decides the item', async () => {
    putSettings(db(), { reviews_per_item: 3 });
    const [item] = freshItems(1) as [number];
    expect(await claimId(ann.client)).toBe(item);
    expect((await ann.client.post(submitPath(item), acceptReview())).status).toBe(201);
    expect(await claimId(ben.client)).toBe(item);
    expect(await claimId(cid.client)).toBe(item);
    const cidSocket = await socketOf(cid);
    const expired = nextEvent(cidSocket, 'lease.expired', (p) => ServerEventSchemas['lease.expired'].parse(p).item_id === item);

    await setK(2);

    // One review stands and k is 2: one slot is left, and ben claimed it first.
    expect(statusOf(item)).toBe('in_review');
    expect(leaseHolders(item)).toEqual([ben.id]);
    expect(ServerEventSchemas['lease.expired'].parse(await expired)).toEqual({ item_id: item, reason: 'slot_removed_by_k_change' });
    const refused = await cid.client.post(submitPath(item), acceptReview());
    expect(refused.status).toBe(409);
    const { error } = ErrorBodySchema.parse(refused.body);
    expect(error.code).toBe('lease_ended');
    expect(error.message).toMatch(/remaining slots went to the reviewers who claimed it before you/);
    const second = await ben.client.post(submitPath(item), acceptReview());
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(statusOf(item)).toBe('accepted');
  });
});

describe('raising k', () => {
  it('leaves decided items decided and items in review waiting for more reviews', async () => {
    putSettings(db(), { reviews_per_item: 1 });
    const [decidedItem, waiting] = freshItems(2) as [number, number];
    expect(await claimId(ann.client)).toBe(decidedItem);
    expect((await ann.client.post(submitPath(decidedItem), acceptReview())).status).toBe(201);
    expect(statusOf(decidedItem)).toBe('accepted');
    await setK(2);
    expect(await claimId(ann.client)).toBe(waiting);
    expect((await ann.client.post(submitPath(waiting), acceptReview())).status).toBe(201);

    await setK(3);

    expect(statusOf(decidedItem)).toBe('accepted');
    expect(statusOf(waiting)).toBe('in_review');
    // The waiting item takes more reviews: ben gets it.
    expect(await claimId(ben.client)).toBe(waiting);
    expect(stuckAt(3)).toEqual([]);
  });
});
