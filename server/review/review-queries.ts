import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { QueueFilters, ReviewCriteria, ReviewRecord } from '../../shared/api/review';
import { ItemStatusSchema, type ItemStatus, type RequeueReason } from '../../shared/domain/generation';
import { DecisionSchema, type Decision } from '../../shared/domain/review';

/** All SQL of review: leases, reviews, answer history, adjudications. */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

export function nowIso(offsetMs = 0): string {
  return new Date(Date.now() + offsetMs).toISOString();
}

/** Removes expired leases and returns who held what, so they can be told. */
export function deleteExpiredLeases(db: Db, now: string): { item_id: number; reviewer_id: number }[] {
  return statement(db, 'DELETE FROM leases WHERE expires_at <= ? RETURNING item_id, reviewer_id').all(now) as { item_id: number; reviewer_id: number }[];
}

export function heldLeases(db: Db, reviewerId: number, now: string): { item_id: number; expires_at: string }[] {
  return statement(db, 'SELECT item_id, expires_at FROM leases WHERE reviewer_id = ? AND expires_at > ? ORDER BY created_at, item_id')
    .all(reviewerId, now) as { item_id: number; expires_at: string }[];
}

/** The caller (`@me`) did not write the item: no one reviews their own hand-written item. */
const NOT_AUTHOR = 'i.created_by IS NOT @me';
/** Items of an archived split (migration 019) wait out of the queue; nothing of them is deleted. */
export const NOT_ARCHIVED = 'NOT EXISTS (SELECT 1 FROM charts c JOIN splits s ON s.name = c.split WHERE c.id = i.chart_id AND s.archived_at IS NOT NULL)';

/**
 * The next item the caller may review among items of one status, in id order: not written by
 * the caller, not reviewed by the caller before (a requeue's retraction excepted), not leased by the caller, and with a
 * free slot (standing reviews + live leases < k).
 */
export function findClaimable(
  db: Db,
  input: { status: 'pending' | 'in_review'; reviewerId: number; now: string; k: number; filters: QueueFilters; mismatchOnly: boolean; exclude: number[] },
): number | null {
  const params: Record<string, string | number> = { status: input.status, me: input.reviewerId, now: input.now, k: input.k };
  const where = ['i.status = @status'];
  if (input.mismatchOnly) where.push('i.verifier_match = 0');
  if (input.filters.run_id !== undefined) {
    where.push('i.run_id = @run_id');
    params.run_id = input.filters.run_id;
  }
  if (input.filters.proposal_id !== undefined) {
    where.push('i.proposal_id = @proposal_id');
    params.proposal_id = input.filters.proposal_id;
  }
  if (input.filters.chart_type !== undefined) {
    where.push('EXISTS (SELECT 1 FROM charts c WHERE c.id = i.chart_id AND c.chart_type = @chart_type)');
    params.chart_type = input.filters.chart_type;
  }
  if (input.exclude.length > 0) where.push(`i.id NOT IN (${input.exclude.map(Number).join(',')})`);
  where.push(NOT_ARCHIVED);
  const row = statement(db,
      `SELECT i.id FROM hqa_items i WHERE ${where.join(' AND ')}
        AND ${NOT_AUTHOR}
        AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.item_id = i.id AND r.reviewer_id = @me AND (r.retract_reason IS NULL OR r.retract_reason != 'requeue'))
        AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.item_id = i.id AND l.reviewer_id = @me)
        AND (SELECT COUNT(*) FROM reviews r WHERE r.item_id = i.id AND r.retracted_at IS NULL)
          + (SELECT COUNT(*) FROM leases l WHERE l.item_id = i.id AND l.expires_at > @now) < @k
       ORDER BY i.id LIMIT 1`,
    )
    .get(params) as { id: number } | undefined;
  return row?.id ?? null;
}

export function insertLease(db: Db, itemId: number, reviewerId: number, expiresAt: string): void {
  statement(db,
    `INSERT INTO leases (item_id, reviewer_id, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (item_id, reviewer_id) DO UPDATE SET expires_at = excluded.expires_at`,
  ).run(itemId, reviewerId, expiresAt);
}

export function renewLease(db: Db, itemId: number, reviewerId: number, now: string, expiresAt: string): boolean {
  return statement(db, 'UPDATE leases SET expires_at = ? WHERE item_id = ? AND reviewer_id = ? AND expires_at > ?').run(expiresAt, itemId, reviewerId, now).changes > 0;
}

/** Removes the reviewer's lease on the item if it is still live; false when they hold none or it ran out. */
export function deleteLiveLease(db: Db, itemId: number, reviewerId: number, now: string): boolean {
  return statement(db, 'DELETE FROM leases WHERE item_id = ? AND reviewer_id = ? AND expires_at > ?').run(itemId, reviewerId, now).changes > 0;
}

export function deleteLease(db: Db, itemId: number, reviewerId: number): boolean {
  return statement(db, 'DELETE FROM leases WHERE item_id = ? AND reviewer_id = ?').run(itemId, reviewerId).changes > 0;
}

export function deleteItemLeases(db: Db, itemId: number): { reviewer_id: number }[] {
  return statement(db, 'DELETE FROM leases WHERE item_id = ? RETURNING reviewer_id').all(itemId) as { reviewer_id: number }[];
}

export function liveLeaseCount(db: Db, itemId: number, now: string, exceptReviewer: number): number {
  return (statement(db, 'SELECT COUNT(*) AS n FROM leases WHERE item_id = ? AND expires_at > ? AND reviewer_id != ?').get(itemId, now, exceptReviewer) as { n: number }).n;
}

export function leaseExpiry(db: Db, itemId: number, reviewerId: number): string | null {
  return (statement(db, 'SELECT expires_at FROM leases WHERE item_id = ? AND reviewer_id = ?').get(itemId, reviewerId) as { expires_at: string } | undefined)?.expires_at ?? null;
}

export function itemState(db: Db, itemId: number): { status: ItemStatus; answer: string; question: string; created_by: number | null } | null {
  const row = statement(db, 'SELECT status, answer, question, created_by FROM hqa_items WHERE id = ?').get(itemId) as
    | { status: string; answer: string; question: string; created_by: number | null }
    | undefined;
  return row ? { ...row, status: ItemStatusSchema.parse(row.status) } : null;
}

export function standingDecisions(db: Db, itemId: number): { id: number; decision: Decision; corrected_answer: string | null; corrected_question: string | null }[] {
  return (
    statement(db, 'SELECT id, decision, corrected_answer, corrected_question FROM reviews WHERE item_id = ? AND retracted_at IS NULL ORDER BY id')
      .all(itemId) as { id: number; decision: string; corrected_answer: string | null; corrected_question: string | null }[]
  ).map((r) => ({ ...r, decision: DecisionSchema.parse(r.decision) }));
}

export interface ReviewInsert {
  itemId: number;
  reviewerId: number;
  decision: Decision;
  criteria: ReviewCriteria;
  feedback: string;
  correctedAnswer: string | null;
  correctedQuestion: string | null;
  complexity: number | null;
  timeSpentMs: number;
}

export function insertReview(db: Db, r: ReviewInsert): { id: number; created_at: string } {
  return statement(db,
      `INSERT INTO reviews (item_id, reviewer_id, decision, rationality, rationality_note, correctness, correctness_note, layout, layout_note,
        feedback, corrected_answer, corrected_question, complexity, time_spent_ms)
       VALUES (@item, @reviewer, @decision, @rat, @rat_note, @cor, @cor_note, @lay, @lay_note, @feedback, @ca, @cq, @complexity, @ms)
       RETURNING id, created_at`,
    )
    .get({
      item: r.itemId,
      reviewer: r.reviewerId,
      decision: r.decision,
      rat: r.criteria.rationality.pass ? 1 : 0,
      rat_note: r.criteria.rationality.note,
      cor: r.criteria.correctness.pass ? 1 : 0,
      cor_note: r.criteria.correctness.note,
      lay: r.criteria.layout.pass ? 1 : 0,
      lay_note: r.criteria.layout.note,
      feedback: r.feedback,
      ca: r.correctedAnswer,
      cq: r.correctedQuestion,
      complexity: r.complexity,
      ms: r.timeSpentMs,
    }) as { id: number; created_at: string };
}

export function hasStandingReview(db: Db, itemId: number, reviewerId: number): boolean {
  return statement(db, 'SELECT 1 FROM reviews WHERE item_id = ? AND reviewer_id = ? AND retracted_at IS NULL').get(itemId, reviewerId) !== undefined;
}

export function getReviewOwner(db: Db, reviewId: number): { item_id: number; reviewer_id: number; created_at: string; retracted_at: string | null } | null {
  return (
    (statement(db, 'SELECT item_id, reviewer_id, created_at, retracted_at FROM reviews WHERE id = ?').get(reviewId) as
      | { item_id: number; reviewer_id: number; created_at: string; retracted_at: string | null }
      | undefined) ?? null
  );
}

export function retractReview(db: Db, reviewId: number, reason: 'undo' | 'requeue'): void {
  statement(db, `UPDATE reviews SET retracted_at = ${NOW}, retract_reason = ? WHERE id = ? AND retracted_at IS NULL`).run(reason, reviewId);
}

export function retractItemReviews(db: Db, itemId: number, reason: 'undo' | 'requeue'): number {
  return statement(db, `UPDATE reviews SET retracted_at = ${NOW}, retract_reason = ? WHERE item_id = ? AND retracted_at IS NULL`).run(reason, itemId).changes;
}

export function adjudicatedSince(db: Db, itemId: number, since: string): boolean {
  return statement(db, 'SELECT 1 FROM adjudications WHERE item_id = ? AND created_at >= ?').get(itemId, since) !== undefined;
}

/**
 * Sets the item's status; a decided status stamps decided_at, any other clears it. A decided
 * status also clears requeue_reason: the reason was for the review round that just ended.
 */
export function setItemStatus(db: Db, itemId: number, status: ItemStatus): void {
  const decided = status === 'accepted' || status === 'rejected' || status === 'needs_adjudication';
  statement(db,
    `UPDATE hqa_items SET status = @status, decided_at = CASE WHEN @decided THEN ${NOW} ELSE NULL END,
      requeue_reason = CASE WHEN @decided THEN NULL ELSE requeue_reason END, updated_at = ${NOW} WHERE id = @id`,
  ).run({ status, decided: decided ? 1 : 0, id: itemId });
}

/** Why the system sent the item back to review; null when a person did. */
export function setRequeueReason(db: Db, itemId: number, reason: RequeueReason | null): void {
  statement(db, `UPDATE hqa_items SET requeue_reason = ?, updated_at = ${NOW} WHERE id = ?`).run(reason, itemId);
}

/** The item's final answer/question (null = the model's own), with a history entry. */
export function setFinalAnswer(
  db: Db,
  input: { itemId: number; answer: string | null; question: string | null; source: 'review' | 'adjudication' | 'undo' | 'requeue'; reviewId: number | null; userId: number | null },
): void {
  const row = statement(db, `UPDATE hqa_items SET final_answer = ?, final_question = ?, updated_at = ${NOW} WHERE id = ? RETURNING answer, question`)
    .get(input.answer, input.question, input.itemId) as { answer: string; question: string };
  statement(db, 'INSERT INTO item_answer_history (item_id, answer, question, source, review_id, user_id) VALUES (?, ?, ?, ?, ?, ?)').run(
    input.itemId,
    input.answer ?? row.answer,
    input.question ?? row.question,
    input.source,
    input.reviewId,
    input.userId,
  );
}

export function insertAdjudication(db: Db, itemId: number, curatorId: number, decision: Decision, note: string): void {
  statement(db, 'INSERT INTO adjudications (item_id, curator_id, decision, note) VALUES (?, ?, ?, ?)').run(itemId, curatorId, decision, note);
}

interface ReviewRow {
  id: number;
  item_id: number;
  reviewer_id: number;
  reviewer: string;
  decision: string;
  rationality: number;
  rationality_note: string;
  correctness: number;
  correctness_note: string;
  layout: number;
  layout_note: string;
  feedback: string;
  corrected_answer: string | null;
  corrected_question: string | null;
  complexity: number | null;
  time_spent_ms: number;
  created_at: string;
  retracted_at: string | null;
  retract_reason: string | null;
}

function toRecord(row: ReviewRow): ReviewRecord {
  return {
    id: row.id,
    item_id: row.item_id,
    reviewer_id: row.reviewer_id,
    reviewer: row.reviewer,
    decision: DecisionSchema.parse(row.decision),
    criteria: {
      rationality: { pass: row.rationality === 1, note: row.rationality_note },
      correctness: { pass: row.correctness === 1, note: row.correctness_note },
      layout: { pass: row.layout === 1, note: row.layout_note },
    },
    feedback: row.feedback,
    corrected_answer: row.corrected_answer,
    corrected_question: row.corrected_question,
    complexity: row.complexity,
    time_spent_ms: row.time_spent_ms,
    created_at: row.created_at,
    retracted_at: row.retracted_at,
    retract_reason: row.retract_reason,
  };
}

export function listItemReviews(db: Db, itemId: number, standingOnly: boolean): ReviewRecord[] {
  return (
    statement(db,
        `SELECT r.*, u.username AS reviewer FROM reviews r JOIN users u ON u.id = r.reviewer_id
         WHERE r.item_id = ? ${standingOnly ? 'AND r.retracted_at IS NULL' : ''} ORDER BY r.id`,
      )
      .all(itemId) as ReviewRow[]
  ).map(toRecord);
}

export function listAnswerHistory(db: Db, itemId: number) {
  return statement(db,
      `SELECT h.answer, h.question, h.source, u.username AS user, h.created_at FROM item_answer_history h
       LEFT JOIN users u ON u.id = h.user_id WHERE h.item_id = ? ORDER BY h.id`,
    )
    .all(itemId) as { answer: string; question: string; source: 'model' | 'review' | 'adjudication' | 'undo' | 'requeue'; user: string | null; created_at: string }[];
}

export function itemsNeedingAdjudication(db: Db, limit = 100): number[] {
  return (statement(db, "SELECT id FROM hqa_items WHERE status = 'needs_adjudication' ORDER BY decided_at, id LIMIT ?").all(limit) as { id: number }[]).map((r) => r.id);
}

/** Items per status, from the counts triggers keep (migration 010), not a scan of every item. */
export function statusCounts(db: Db): Record<ItemStatus, number> {
  const counts: Record<ItemStatus, number> = { pending: 0, in_review: 0, accepted: 0, rejected: 0, needs_adjudication: 0 };
  for (const row of statement(db, 'SELECT status, n FROM item_status_counts').all() as { status: string; n: number }[]) {
    counts[ItemStatusSchema.parse(row.status)] = row.n;
  }
  return counts;
}

export function availableFor(db: Db, reviewerId: number, now: string, k: number): number {
  return (
    statement(db,
        `SELECT COUNT(*) AS n FROM hqa_items i WHERE i.status IN ('pending', 'in_review') AND ${NOT_AUTHOR} AND ${NOT_ARCHIVED}
          AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.item_id = i.id AND r.reviewer_id = @me AND (r.retract_reason IS NULL OR r.retract_reason != 'requeue'))
          AND (SELECT COUNT(*) FROM reviews r WHERE r.item_id = i.id AND r.retracted_at IS NULL)
            + (SELECT COUNT(*) FROM leases l WHERE l.item_id = i.id AND l.expires_at > @now AND l.reviewer_id != @me) < @k`,
      )
      .get({ me: reviewerId, now, k }) as { n: number }
  ).n;
}

export function leaseCountsByReviewer(db: Db, now: string): Map<number, number> {
  const rows = statement(db, 'SELECT reviewer_id, COUNT(*) AS n FROM leases WHERE expires_at > ? GROUP BY reviewer_id').all(now) as { reviewer_id: number; n: number }[];
  return new Map(rows.map((r) => [r.reviewer_id, r.n]));
}
