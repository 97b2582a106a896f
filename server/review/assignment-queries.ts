import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { ItemAssignmentDetail, ReviewQueue } from '../../shared/api/assignment';

/** All SQL of assignment (migration 021): named queues and their members, item assignments, retired items. */

interface QueueRow {
  id: number;
  name: string;
  items: number;
}

function membersOf(db: Db, queueId: number): { id: number; username: string }[] {
  return statement(db,
    'SELECT u.id, u.username FROM review_queue_members m JOIN users u ON u.id = m.user_id WHERE m.queue_id = ? ORDER BY u.username',
  ).all(queueId) as { id: number; username: string }[];
}

const QUEUE_SELECT = 'SELECT q.id, q.name, (SELECT COUNT(*) FROM item_assignments a WHERE a.queue_id = q.id) AS items FROM review_queues q';

export function listQueues(db: Db): ReviewQueue[] {
  return (statement(db, `${QUEUE_SELECT} ORDER BY q.name`).all() as QueueRow[]).map((row) => ({ ...row, members: membersOf(db, row.id) }));
}

export function getQueue(db: Db, queueId: number): ReviewQueue | null {
  const row = statement(db, `${QUEUE_SELECT} WHERE q.id = ?`).get(queueId) as QueueRow | undefined;
  return row ? { ...row, members: membersOf(db, row.id) } : null;
}

export function queueNameTaken(db: Db, name: string): boolean {
  return statement(db, 'SELECT 1 FROM review_queues WHERE name = ?').get(name) !== undefined;
}

/** Whether a queue other than `exceptId` has this name (names compare case-insensitively: the column is NOCASE). */
export function queueNameTakenByOther(db: Db, name: string, exceptId: number): boolean {
  return statement(db, 'SELECT 1 FROM review_queues WHERE name = ? AND id != ?').get(name, exceptId) !== undefined;
}

export function renameQueueRow(db: Db, queueId: number, name: string): void {
  statement(db, 'UPDATE review_queues SET name = ? WHERE id = ?').run(name, queueId);
}

/** Unassigns every item assigned to the queue; how many were. Done before the queue's row goes, so the count is known (the cascade would not say). */
export function deleteQueueAssignments(db: Db, queueId: number): number {
  return statement(db, 'DELETE FROM item_assignments WHERE queue_id = ?').run(queueId).changes;
}

/** Deletes the queue and its memberships; true when it existed. */
export function deleteQueueRow(db: Db, queueId: number): boolean {
  statement(db, 'DELETE FROM review_queue_members WHERE queue_id = ?').run(queueId);
  return statement(db, 'DELETE FROM review_queues WHERE id = ?').run(queueId).changes > 0;
}

/** One item's assignment with who made it and when; null when it has none. */
export function itemAssignmentDetail(db: Db, itemId: number): ItemAssignmentDetail | null {
  const row = statement(db,
    `SELECT a.assigned_at, a.reviewer_id, u.username AS reviewer, a.queue_id, q.name AS queue, b.username AS assigned_by
       FROM item_assignments a
       LEFT JOIN users u ON u.id = a.reviewer_id
       LEFT JOIN review_queues q ON q.id = a.queue_id
       LEFT JOIN users b ON b.id = a.assigned_by
      WHERE a.item_id = ?`,
  ).get(itemId) as
    | { assigned_at: string; reviewer_id: number | null; reviewer: string | null; queue_id: number | null; queue: string | null; assigned_by: string | null }
    | undefined;
  if (!row) return null;
  return {
    reviewer: row.reviewer_id !== null && row.reviewer !== null ? { id: row.reviewer_id, username: row.reviewer } : null,
    queue: row.queue_id !== null && row.queue !== null ? { id: row.queue_id, name: row.queue } : null,
    assigned_by: row.assigned_by,
    assigned_at: row.assigned_at,
  };
}

export function insertQueue(db: Db, name: string, createdBy: number): number {
  return (statement(db, 'INSERT INTO review_queues (name, created_by) VALUES (?, ?) RETURNING id').get(name, createdBy) as { id: number }).id;
}

export function insertQueueMember(db: Db, queueId: number, userId: number): boolean {
  return statement(db, 'INSERT INTO review_queue_members (queue_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING').run(queueId, userId).changes > 0;
}

export function deleteQueueMember(db: Db, queueId: number, userId: number): boolean {
  return statement(db, 'DELETE FROM review_queue_members WHERE queue_id = ? AND user_id = ?').run(queueId, userId).changes > 0;
}

/** Enabled users who may review (reviewer role or above): whom a curator may assign to or add to a queue. */
export function assignableReviewers(db: Db): { id: number; username: string }[] {
  return statement(db, "SELECT id, username FROM users WHERE disabled_at IS NULL AND role IN ('reviewer', 'curator', 'admin') ORDER BY username").all() as {
    id: number;
    username: string;
  }[];
}

export function isAssignableReviewer(db: Db, userId: number): boolean {
  return statement(db, "SELECT 1 FROM users WHERE id = ? AND disabled_at IS NULL AND role IN ('reviewer', 'curator', 'admin')").get(userId) !== undefined;
}

/** Of these ids, the items that exist, in id order. */
export function existingItemIds(db: Db, itemIds: readonly number[]): number[] {
  return (statement(db, 'SELECT id FROM hqa_items WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id').all(JSON.stringify(itemIds)) as { id: number }[]).map(
    (row) => row.id,
  );
}

/** Assigns (or re-assigns) the item; true when its assignment changed. */
export function upsertAssignment(db: Db, itemId: number, to: { reviewerId: number | null; queueId: number | null }, assignedBy: number): boolean {
  return (
    statement(db,
      `INSERT INTO item_assignments (item_id, reviewer_id, queue_id, assigned_by) VALUES (@item, @reviewer, @queue, @by)
       ON CONFLICT (item_id) DO UPDATE SET reviewer_id = excluded.reviewer_id, queue_id = excluded.queue_id,
         assigned_by = excluded.assigned_by, assigned_at = excluded.assigned_at
       WHERE item_assignments.reviewer_id IS NOT excluded.reviewer_id OR item_assignments.queue_id IS NOT excluded.queue_id`,
    ).run({ item: itemId, reviewer: to.reviewerId, queue: to.queueId, by: assignedBy }).changes > 0
  );
}

/** Removes the item's assignment; what it was, or null when it had none. */
export function deleteAssignment(db: Db, itemId: number): { reviewer_id: number | null; queue_id: number | null } | null {
  return (
    (statement(db, 'DELETE FROM item_assignments WHERE item_id = ? RETURNING reviewer_id, queue_id').get(itemId) as
      | { reviewer_id: number | null; queue_id: number | null }
      | undefined) ?? null
  );
}

export function insertRetired(db: Db, itemId: number, retiredBy: number, reason: string): boolean {
  return statement(db, 'INSERT INTO retired_items (item_id, retired_by, reason) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(itemId, retiredBy, reason).changes > 0;
}

export function deleteRetired(db: Db, itemId: number): boolean {
  return statement(db, 'DELETE FROM retired_items WHERE item_id = ?').run(itemId).changes > 0;
}
