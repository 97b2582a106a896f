import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../db/database';
import { assignedAvailableFor, availableFor, NOT_ARCHIVED, NOT_RETIRED, nowIso, OPEN_TO_ME, retractReview } from '../../server/review/review-queries';
import { archiveSplit, buildAssignment, buildChart, buildItem, buildLease, buildQa, buildQueue, buildReview, buildUser, copyItem, retireItem } from '../support/factories';

/**
 * The queue bar's counts, made from the small sides (review-queries.ts), against their
 * definition: every open item tested one by one, as the counts were computed before (and took
 * 4 s at 100,000 items). Every way an item can be in or out of a reviewer's count is built
 * below, for several reviewers and several k.
 */
const DEFINITION = `i.created_by IS NOT @me AND ${NOT_ARCHIVED} AND ${NOT_RETIRED}
  AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.item_id = i.id AND r.reviewer_id = @me AND (r.retract_reason IS NULL OR r.retract_reason != 'requeue'))
  AND (SELECT COUNT(*) FROM reviews r WHERE r.item_id = i.id AND r.retracted_at IS NULL)
    + (SELECT COUNT(*) FROM leases l WHERE l.item_id = i.id AND l.expires_at > @now AND l.reviewer_id != @me) < @k`;
const definedAvailable = (db: Db, me: number, now: string, k: number) =>
  (db.prepare(`SELECT COUNT(*) AS n FROM hqa_items i WHERE i.status IN ('pending', 'in_review') AND ${OPEN_TO_ME} AND ${DEFINITION}`).get({ me, now, k }) as { n: number }).n;
const definedAssigned = (db: Db, me: number, now: string, k: number) =>
  (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM hqa_items i WHERE i.status IN ('pending', 'in_review')
          AND (i.id IN (SELECT a.item_id FROM item_assignments a WHERE a.reviewer_id = @me)
            OR i.id IN (SELECT a.item_id FROM item_assignments a JOIN review_queue_members m ON m.queue_id = a.queue_id WHERE m.user_id = @me))
          AND ${DEFINITION}`,
      )
      .get({ me, now, k }) as { n: number }
  ).n;

let db: Db;
const users: number[] = [];
beforeAll(async () => {
  db = openDatabase(':memory:');
  migrate(db);
  for (let i = 0; i < 4; i++) users.push((await buildUser(db)).id);
  const [me = 0, other = 0, third = 0, author = 0] = users;
  const qa = buildQa(db, { chartId: buildChart(db) });
  const base = buildItem(db, { qaId: qa });
  const item = (status: 'pending' | 'in_review' | 'accepted' = 'pending') => copyItem(db, base, { proposalId: null, status });
  for (let i = 0; i < 5; i++) item();
  item('accepted');
  // Hand-written by me, and by someone else.
  buildItem(db, { qaId: qa, createdBy: me });
  buildItem(db, { qaId: qa, createdBy: author });
  // My reviews retracted: by an undo (never mine again), by a requeue (mine again).
  for (const reason of ['undo', 'requeue'] as const) {
    const id = item();
    retractReview(db, buildReview(db, { itemId: id, reviewerId: me }), reason);
  }
  // An archived split's item, and a retired item.
  archiveSplit(db, { name: 'old', archivedBy: author });
  const archived = buildItem(db, { qaId: buildQa(db, { chartId: buildChart(db, { split: 'old' }) }) });
  expect(archived).toBeGreaterThan(0);
  retireItem(db, { itemId: item(), retiredBy: author });
  // Assigned to me, to another reviewer, to a queue I am in, to one I am not in.
  const mine = buildQueue(db, { name: 'mine', members: [me, third], createdBy: author });
  const theirs = buildQueue(db, { name: 'theirs', members: [other], createdBy: author });
  const assign = (itemId: number, to: { reviewer?: number; queue?: number }) => buildAssignment(db, { itemId, reviewerId: to.reviewer, queueId: to.queue, assignedBy: author });
  assign(item(), { reviewer: me });
  assign(item(), { reviewer: other });
  assign(item(), { queue: mine });
  assign(item(), { queue: theirs });
  assign(buildItem(db, { qaId: qa, createdBy: me }), { reviewer: me });
  // In review: leased by another, by me, by two others; with a standing review and a lease.
  const leased = (holders: number[]) => {
    const id = item('in_review');
    for (const holder of holders) buildLease(db, { itemId: id, reviewerId: holder });
    return id;
  };
  leased([other]);
  leased([me]);
  leased([other, third]);
  const reviewed = leased([third]);
  buildReview(db, { itemId: reviewed, reviewerId: other });
  // A lease that ran out, on a pending item; a pending item another holds (should not happen: counted by its slots).
  buildLease(db, { itemId: item(), reviewerId: other, expiresAt: '2000-01-01T00:00:00.000Z' });
  buildLease(db, { itemId: item(), reviewerId: other });
});
afterAll(() => db.close());

describe('queue counts', () => {
  it.each([1, 2, 3])('equal their definition for every reviewer at k = %i', (k) => {
    const now = nowIso();
    for (const me of users) {
      expect(availableFor(db, me, now, k), `available for user ${me}`).toBe(definedAvailable(db, me, now, k));
      expect(assignedAvailableFor(db, me, now, k), `assigned to user ${me}`).toBe(definedAssigned(db, me, now, k));
    }
    // The states above do tell reviewers apart (a count equal for everyone would prove little).
    expect(new Set(users.map((me) => availableFor(db, me, now, k))).size).toBeGreaterThan(1);
  });
});
