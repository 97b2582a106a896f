import { z } from 'zod';
import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { QueueFilters, ReviewCriteria, ReviewRecord } from '../../shared/api/review';
import { ItemStatusSchema, type ItemStatus, type RequeueReason } from '../../shared/domain/generation';
import { DecisionSchema, LeaseEndReasonSchema, type Decision, type LeaseEndReason } from '../../shared/domain/review';
import { AnswerTypeSchema, type AnswerType } from '../../shared/table/answers';

/** All SQL of review: leases, reviews, answer history, adjudications. */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

export function nowIso(offsetMs = 0): string {
  return new Date(Date.now() + offsetMs).toISOString();
}

/** Removes expired leases and returns who held what, so they can be told. */
export function deleteExpiredLeases(db: Db, now: string): { item_id: number; reviewer_id: number }[] {
  return statement(db, 'DELETE FROM leases WHERE expires_at <= ? RETURNING item_id, reviewer_id').all(now) as { item_id: number; reviewer_id: number }[];
}

/** A lease as a task carries it: when it runs out, and the token a release names it by (migration 024; '' for a lease made without one). */
export interface LeaseRef {
  expires_at: string;
  token: string;
}

export function heldLeases(db: Db, reviewerId: number, now: string): ({ item_id: number } & LeaseRef)[] {
  return statement(db, "SELECT item_id, expires_at, COALESCE(token, '') AS token FROM leases WHERE reviewer_id = ? AND expires_at > ? ORDER BY created_at, item_id")
    .all(reviewerId, now) as ({ item_id: number } & LeaseRef)[];
}

/** The caller (`@me`) did not write the item: no one reviews their own hand-written item. */
const NOT_AUTHOR = 'i.created_by IS NOT @me';
/** Items of an archived split (migration 019) wait out of the queue; nothing of them is deleted. */
export const NOT_ARCHIVED = 'NOT EXISTS (SELECT 1 FROM charts c JOIN splits s ON s.name = c.split WHERE c.id = i.chart_id AND s.archived_at IS NOT NULL)';

/** Retired items (migration 021) are out of review; their reviews and answers stay. */
export const NOT_RETIRED = 'NOT EXISTS (SELECT 1 FROM retired_items ri WHERE ri.item_id = i.id)';

/**
 * The item is not reserved for someone else (migration 021): not assigned to a queue the caller
 * (`@me`) is not in, and not assigned to another reviewer who has not reviewed it yet — once the
 * assignee's review stands, the item's other slots are open to everyone. An item assigned to its
 * own author (who may never review it) reserves nothing.
 */
export const OPEN_TO_ME = `NOT EXISTS (SELECT 1 FROM item_assignments a WHERE a.item_id = i.id AND (
    (a.reviewer_id IS NOT NULL AND a.reviewer_id != @me AND a.reviewer_id IS NOT i.created_by
      AND NOT EXISTS (SELECT 1 FROM reviews ar WHERE ar.item_id = i.id AND ar.reviewer_id = a.reviewer_id AND ar.retracted_at IS NULL))
    OR (a.queue_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM review_queue_members m WHERE m.queue_id = a.queue_id AND m.user_id = @me))))`;

/** Items assigned to the caller themselves. */
const ASSIGNED_TO_ME = 'i.id IN (SELECT a.item_id FROM item_assignments a WHERE a.reviewer_id = @me)';
/** Items assigned to a named queue the caller is in. */
const IN_MY_QUEUES = 'i.id IN (SELECT a.item_id FROM item_assignments a JOIN review_queue_members m ON m.queue_id = a.queue_id WHERE m.user_id = @me)';

/**
 * What makes an open item claimable by the caller, whatever its place in the order: not
 * written by them, not reviewed by them before (a requeue's retraction excepted), not leased by
 * them, not excluded, not archived or retired, and with a free slot (standing reviews + live
 * leases < k). Parameters: @me, @now, @k, @exclude (a JSON array of ids).
 */
const CLAIMABLE = `i.id NOT IN (SELECT value FROM json_each(@exclude))
        AND ${NOT_ARCHIVED} AND ${NOT_RETIRED} AND ${NOT_AUTHOR}
        AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.item_id = i.id AND r.reviewer_id = @me AND (r.retract_reason IS NULL OR r.retract_reason != 'requeue'))
        AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.item_id = i.id AND l.reviewer_id = @me)
        AND (SELECT COUNT(*) FROM reviews r WHERE r.item_id = i.id AND r.retracted_at IS NULL)
          + (SELECT COUNT(*) FROM leases l WHERE l.item_id = i.id AND l.expires_at > @now) < @k`;

/** The queue filters as SQL over `i`, and their parameters; gold items are filtered the same way (an item outside them would give gold away). */
function queueFilterSql(filters: QueueFilters): { sql: string; params: Record<string, string | number> } {
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  if (filters.run_id !== undefined) {
    where.push('AND i.run_id = @run_id');
    params.run_id = filters.run_id;
  }
  if (filters.proposal_id !== undefined) {
    where.push('AND i.proposal_id = @proposal_id');
    params.proposal_id = filters.proposal_id;
  }
  if (filters.chart_type !== undefined) {
    where.push('AND EXISTS (SELECT 1 FROM charts c WHERE c.id = i.chart_id AND c.chart_type = @chart_type)');
    params.chart_type = filters.chart_type;
  }
  return { sql: where.join(' '), params };
}

/** One step of the claim order: an id or NULL, so the steps chain in a COALESCE. */
function regularStep(scope: string, status: 'pending' | 'in_review' | 'open', mismatchOnly: boolean, order: string, filterSql: string): string {
  const statusSql = status === 'open' ? "i.status IN ('pending', 'in_review')" : `i.status = '${status}'`;
  return `(SELECT i.id FROM hqa_items i WHERE ${statusSql} AND ${scope} ${mismatchOnly ? 'AND i.verifier_match = 0' : ''} ${filterSql}
        AND ${CLAIMABLE} ORDER BY ${order} LIMIT 1)`;
}

/**
 * A gold item the reviewer may be served: still accepted, not retired, not written by them,
 * never reviewed by them (as a regular review, retracted or not, or as a gold review), not
 * leased to them, not excluded. Oldest mark first.
 */
function goldStep(filterSql: string): string {
  // CROSS JOIN keeps gold_items the outer loop: gold items are a calibration set of tens, while
  // SQLite's planner started at the accepted items (thousands in a grown benchmark) and sorted —
  // 2 ms for each claim that drew gold at 3,000 accepted items, growing with every acceptance.
  return `(SELECT g.item_id FROM gold_items g CROSS JOIN hqa_items i ON i.id = g.item_id
      WHERE i.status = 'accepted' AND ${NOT_AUTHOR} ${filterSql} AND ${NOT_ARCHIVED} AND ${NOT_RETIRED}
        AND g.item_id NOT IN (SELECT value FROM json_each(@exclude))
        AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.item_id = g.item_id AND r.reviewer_id = @me)
        AND NOT EXISTS (SELECT 1 FROM gold_reviews gr WHERE gr.item_id = g.item_id AND gr.reviewer_id = @me)
        AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.item_id = g.item_id AND l.reviewer_id = @me)
      ORDER BY g.marked_at, g.item_id LIMIT 1)`;
}

/**
 * Where gold items stand in the claim order: `drawn` (the `gold_share` draw said gold) after the
 * caller's assigned and queue items and before the general queue; `drained` only once the
 * general queue has nothing for them; `off` when gold is not in play.
 */
export type GoldPlace = 'drawn' | 'drained' | 'off';

export interface ClaimInput {
  reviewerId: number;
  now: string;
  k: number;
  filters: QueueFilters;
  exclude: number[];
  gold: GoldPlace;
}

/**
 * The claim statement's text for one shape of claim (which steps, which filters): built once per
 * shape. A claim used to build these kilobytes anew, and the statement cache to hash them, on
 * every call. The shapes are few: three optional filters, mismatch-first, the gold place, k > 1.
 */
const claimTexts = new Map<string, string>();

/** The claim statement for `input` (exported for the test of its query plan). */
export function claimSql(input: ClaimInput, filterSql = queueFilterSql(input.filters).sql): string {
  const shape = `${input.filters.mismatch_first ? 1 : 0}|${input.gold}|${input.k > 1 ? 1 : 0}|${filterSql}`;
  let sql = claimTexts.get(shape);
  if (sql === undefined) {
    sql = buildClaimSql(input, filterSql);
    claimTexts.set(shape, sql);
  }
  return sql;
}

/**
 * The caller's next item in one SELECT: items assigned to them, then items of their named
 * queues, then (when drawn) a gold item, then the general queue — items already in review before
 * pending ones (finish what others started), each oldest first, verifier mismatches before all
 * within each step with `mismatch_first` — then (when drained) a gold item. Each step is a
 * subquery with LIMIT 1 inside a COALESCE, which SQLite evaluates lazily: a step runs only when
 * every step before it found nothing, and each walks its index in order and stops at its first
 * row. `gold`: the pick is a gold item (accepted; it takes no slot).
 */
export function findNextClaim(db: Db, input: ClaimInput): { id: number; gold: boolean } | null {
  const { sql: filterSql, params: filterParams } = queueFilterSql(input.filters);
  const row = statement(db, claimSql(input, filterSql)).get({ me: input.reviewerId, now: input.now, k: input.k, exclude: JSON.stringify(input.exclude.map(Number)), ...filterParams }) as
    | { id: number | null; status: string | null }
    | undefined;
  if (!row || row.id === null) return null;
  return { id: row.id, gold: row.status === 'accepted' };
}

function buildClaimSql(input: ClaimInput, filterSql: string): string {
  const mismatchFirst = input.filters.mismatch_first;
  const assignedOrder = `${mismatchFirst ? 'i.verifier_match = 0 DESC, ' : ''}i.status = 'in_review' DESC, i.id`;
  const steps = [regularStep(ASSIGNED_TO_ME, 'open', false, assignedOrder, filterSql), regularStep(IN_MY_QUEUES, 'open', false, assignedOrder, filterSql)];
  if (input.gold === 'drawn') steps.push(goldStep(filterSql));
  const general: { status: 'pending' | 'in_review'; mismatchOnly: boolean }[] = [
    ...(mismatchFirst
      ? [
          { status: 'in_review' as const, mismatchOnly: true },
          { status: 'pending' as const, mismatchOnly: true },
        ]
      : []),
    { status: 'in_review', mismatchOnly: false },
    { status: 'pending', mismatchOnly: false },
  ];
  // With one review per item an item in review has its one slot taken (a live lease; a standing
  // review would have decided it), so those steps could only walk every leased item and find
  // none: under load, most of the claim's time.
  for (const pass of general.filter((p) => input.k > 1 || p.status === 'pending')) steps.push(regularStep(OPEN_TO_ME, pass.status, pass.mismatchOnly, 'i.id', filterSql));
  if (input.gold === 'drained') steps.push(goldStep(filterSql));
  return `SELECT pick.id AS id, (SELECT status FROM hqa_items WHERE id = pick.id) AS status FROM (SELECT COALESCE(${steps.join(',\n      ')}) AS id) pick`;
}

/**
 * The next item of the general queue the caller may review among items of one status, in id
 * order (one step of `findNextClaim`'s order, kept whole for the claim benchmark's floor).
 */
export function findClaimable(
  db: Db,
  input: { status: 'pending' | 'in_review'; reviewerId: number; now: string; k: number; filters: QueueFilters; mismatchOnly: boolean; exclude: number[] },
): number | null {
  const { sql: filterSql, params } = queueFilterSql(input.filters);
  const row = statement(db, `SELECT ${regularStep(OPEN_TO_ME, input.status, input.mismatchOnly, 'i.id', filterSql)} AS id`).get({
    ...params,
    me: input.reviewerId,
    now: input.now,
    k: input.k,
    exclude: JSON.stringify(input.exclude.map(Number)),
  }) as { id: number | null } | undefined;
  return row?.id ?? null;
}

/**
 * Leases the item to the reviewer until `expiresAt`; a lease they still hold on it is extended and
 * keeps its token. A note of an earlier lease of theirs on it that was ended for them
 * (`lease_endings`) goes: it spoke of that lease, not this one.
 */
export function insertLease(db: Db, itemId: number, reviewerId: number, expiresAt: string): LeaseRef {
  statement(db, 'DELETE FROM lease_endings WHERE item_id = ? AND reviewer_id = ?').run(itemId, reviewerId);
  return statement(db,
    `INSERT INTO leases (item_id, reviewer_id, expires_at, token) VALUES (?, ?, ?, lower(hex(randomblob(8))))
     ON CONFLICT (item_id, reviewer_id) DO UPDATE SET expires_at = excluded.expires_at
     RETURNING expires_at, COALESCE(token, '') AS token`,
  ).get(itemId, reviewerId, expiresAt) as LeaseRef;
}

export function renewLease(db: Db, itemId: number, reviewerId: number, now: string, expiresAt: string): boolean {
  return statement(db, 'UPDATE leases SET expires_at = ? WHERE item_id = ? AND reviewer_id = ? AND expires_at > ?').run(expiresAt, itemId, reviewerId, now).changes > 0;
}

/** Removes the reviewer's lease on the item if it is still live; false when they hold none or it ran out. */
export function deleteLiveLease(db: Db, itemId: number, reviewerId: number, now: string): boolean {
  return statement(db, 'DELETE FROM leases WHERE item_id = ? AND reviewer_id = ? AND expires_at > ?').run(itemId, reviewerId, now).changes > 0;
}

/** Ends the reviewer's lease on the item; with `token`, only if it is still the lease of that token. */
export function deleteLease(db: Db, itemId: number, reviewerId: number, token?: string): boolean {
  if (token === undefined) return statement(db, 'DELETE FROM leases WHERE item_id = ? AND reviewer_id = ?').run(itemId, reviewerId).changes > 0;
  return statement(db, "DELETE FROM leases WHERE item_id = ? AND reviewer_id = ? AND COALESCE(token, '') = ?").run(itemId, reviewerId, token).changes > 0;
}

const ReviewerIdsSchema = z.array(z.number().int());

/** Why a lease was ended for its holder (migration 031): what their next submit or renewal is told. */
export interface LeaseEnding {
  reason: LeaseEndReason;
  k_from: number;
  k_to: number;
}

/** Ends the reviewer's lease on the item (live or not) and notes why, for their next submit or renewal. */
export function endLeaseWithReason(db: Db, itemId: number, reviewerId: number, ending: LeaseEnding): void {
  statement(db, 'DELETE FROM leases WHERE item_id = ? AND reviewer_id = ?').run(itemId, reviewerId);
  statement(db,
    `INSERT INTO lease_endings (item_id, reviewer_id, reason, k_from, k_to) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (item_id, reviewer_id) DO UPDATE SET reason = excluded.reason, k_from = excluded.k_from, k_to = excluded.k_to, ended_at = excluded.ended_at`,
  ).run(itemId, reviewerId, ending.reason, ending.k_from, ending.k_to);
}

/** Why the reviewer's last lease on the item was ended for them; null when it was not (or they leased it again since). */
export function leaseEnding(db: Db, itemId: number, reviewerId: number): LeaseEnding | null {
  const row = statement(db, 'SELECT reason, k_from, k_to FROM lease_endings WHERE item_id = ? AND reviewer_id = ?').get(itemId, reviewerId) as
    | { reason: string; k_from: number; k_to: number }
    | undefined;
  if (!row) return null;
  return { reason: LeaseEndReasonSchema.parse(row.reason), k_from: row.k_from, k_to: row.k_to };
}

/**
 * The items in review with their standing reviews and the holders of their live leases, oldest
 * lease first: what a change of k is applied to. Items in review are few (the ones being worked
 * on), so this walks them all.
 */
export function itemsInReview(db: Db, now: string): { id: number; standing: number; holders: number[] }[] {
  const rows = statement(db,
    `SELECT i.id,
        (SELECT COUNT(*) FROM reviews r WHERE r.item_id = i.id AND r.retracted_at IS NULL) AS standing,
        (SELECT json_group_array(reviewer_id) FROM (SELECT l.reviewer_id FROM leases l WHERE l.item_id = i.id AND l.expires_at > @now ORDER BY l.created_at, l.reviewer_id)) AS holders
     FROM hqa_items i WHERE i.status = 'in_review' ORDER BY i.id`,
  ).all({ now }) as { id: number; standing: number; holders: string }[];
  return rows.map((row) => ({ id: row.id, standing: row.standing, holders: ReviewerIdsSchema.parse(JSON.parse(row.holders)) }));
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

export function itemState(db: Db, itemId: number): { status: ItemStatus; answer: string; answer_type: AnswerType; question: string; created_by: number | null } | null {
  const row = statement(db, 'SELECT status, answer, answer_type, question, created_by FROM hqa_items WHERE id = ?').get(itemId) as
    | { status: string; answer: string; answer_type: string; question: string; created_by: number | null }
    | undefined;
  return row ? { ...row, status: ItemStatusSchema.parse(row.status), answer_type: AnswerTypeSchema.parse(row.answer_type) } : null;
}

export function standingDecisions(
  db: Db,
  itemId: number,
): { id: number; reviewer_id: number; decision: Decision; corrected_answer: string | null; corrected_question: string | null }[] {
  return (
    statement(db, 'SELECT id, reviewer_id, decision, corrected_answer, corrected_question FROM reviews WHERE item_id = ? AND retracted_at IS NULL ORDER BY id')
      .all(itemId) as { id: number; reviewer_id: number; decision: string; corrected_answer: string | null; corrected_question: string | null }[]
  ).map((r) => ({ ...r, decision: DecisionSchema.parse(r.decision) }));
}

/** The reviewers whose review of the item stands now (not retracted): whose verdicts its outcome rests on. */
export function standingReviewers(db: Db, itemId: number): number[] {
  return (statement(db, 'SELECT reviewer_id FROM reviews WHERE item_id = ? AND retracted_at IS NULL ORDER BY id').all(itemId) as { reviewer_id: number }[]).map(
    (r) => r.reviewer_id,
  );
}

/** The corrected answers of the item's standing reviews, oldest first: what its next reviewers are shown, anonymous. */
export function standingCorrections(db: Db, itemId: number): string[] {
  return (
    statement(db, 'SELECT corrected_answer FROM reviews WHERE item_id = ? AND retracted_at IS NULL AND corrected_answer IS NOT NULL ORDER BY id').all(itemId) as {
      corrected_answer: string;
    }[]
  ).map((r) => r.corrected_answer);
}

/**
 * Gold review ids (migration 017) once started at this base, so that they never named a review;
 * the ids below it are one sequence shared by reviews and gold reviews (`NEXT_REVIEW_ID`).
 */
export const LEGACY_GOLD_REVIEW_ID_BASE = 1_000_000_000_000;

/**
 * The next id of a review or a gold review: one sequence over both tables, so that a gold
 * review's id reads like any review's (blind review: it comes back in the submit response and
 * names the review to undo) and never names another review. The legacy gold ids above the base
 * are left out. Both MAX lookups walk a rowid index from its end.
 */
export const NEXT_REVIEW_ID = `(SELECT MAX(n) + 1 FROM (SELECT COALESCE(MAX(id), 0) AS n FROM reviews
    UNION ALL SELECT COALESCE(MAX(id), 0) FROM gold_reviews WHERE id < ${LEGACY_GOLD_REVIEW_ID_BASE}))`;

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
      `INSERT INTO reviews (id, item_id, reviewer_id, decision, rationality, rationality_note, correctness, correctness_note, layout, layout_note,
        feedback, corrected_answer, corrected_question, complexity, time_spent_ms)
       VALUES (${NEXT_REVIEW_ID}, @item, @reviewer, @decision, @rat, @rat_note, @cor, @cor_note, @lay, @lay_note, @feedback, @ca, @cq, @complexity, @ms)
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

/**
 * Items per status, from the counts triggers on `hqa_items` keep (010_add_item_status_counts.sql),
 * not a scan of every item. A migration that rebuilds `hqa_items` drops those triggers with the
 * table: it must create them again, or every count goes stale without an error.
 */
export function statusCounts(db: Db): Record<ItemStatus, number> {
  const counts: Record<ItemStatus, number> = { pending: 0, in_review: 0, accepted: 0, rejected: 0, needs_adjudication: 0 };
  for (const row of statement(db, 'SELECT status, n FROM item_status_counts').all() as { status: string; n: number }[]) {
    counts[ItemStatusSchema.parse(row.status)] = row.n;
  }
  return counts;
}

/**
 * The slot test of the queue counts: standing reviews and other reviewers' live leases leave room
 * (the caller's own lease on an item keeps it theirs, so it is counted for them).
 */
const SLOT_FREE_FOR_ME = `(SELECT COUNT(*) FROM reviews r WHERE r.item_id = i.id AND r.retracted_at IS NULL)
            + (SELECT COUNT(*) FROM leases l WHERE l.item_id = i.id AND l.expires_at > @now AND l.reviewer_id != @me) < @k`;
/** Not reviewed by the caller before (a requeue's retraction excepted). */
const NOT_REVIEWED_BY_ME = "NOT EXISTS (SELECT 1 FROM reviews r WHERE r.item_id = i.id AND r.reviewer_id = @me AND (r.retract_reason IS NULL OR r.retract_reason != 'requeue'))";
/** Everything that makes an open item one the caller may take, as the queue bar counts it. */
const COUNTED_FOR_ME = `${NOT_AUTHOR} AND ${NOT_ARCHIVED} AND ${NOT_RETIRED} AND ${OPEN_TO_ME} AND ${NOT_REVIEWED_BY_ME} AND ${SLOT_FREE_FOR_ME}`;

/**
 * How many open items the caller may claim: the queue bar's "N for you" (gold items are counted
 * apart). Testing every open item took 4 s at 100,000 items, on every queue fetch of every
 * reviewer's page. The count is instead made from the small sides: the pending items (kept in
 * item_status_counts), less the pending ones something excludes for the caller — each exclusion
 * found from its own small table or index (their own items and reviews, archived splits, retired
 * items, items reserved for others, other reviewers' leases), a UNION so none is taken off twice —
 * plus the items in review, which are few, tested one by one as before. A pending item has no
 * standing review (a review needs a lease, which puts its item in review, and a retraction that
 * leaves none sets it pending again), so its slots are free unless a lease says otherwise.
 */
export function availableFor(db: Db, reviewerId: number, now: string, k: number): number {
  return (
    statement(db,
        `WITH excluded (id) AS (
            SELECT i.id FROM hqa_items i WHERE i.created_by = @me AND i.status = 'pending'
            UNION SELECT i.id FROM reviews r CROSS JOIN hqa_items i ON i.id = r.item_id
              WHERE r.reviewer_id = @me AND (r.retract_reason IS NULL OR r.retract_reason != 'requeue') AND i.status = 'pending'
            UNION SELECT i.id FROM splits s CROSS JOIN charts c ON c.split = s.name CROSS JOIN hqa_items i ON i.chart_id = c.id
              WHERE s.archived_at IS NOT NULL AND i.status = 'pending'
            UNION SELECT i.id FROM retired_items ri CROSS JOIN hqa_items i ON i.id = ri.item_id WHERE i.status = 'pending'
            UNION SELECT i.id FROM item_assignments a CROSS JOIN hqa_items i ON i.id = a.item_id WHERE i.status = 'pending' AND NOT ${OPEN_TO_ME}
            UNION SELECT i.id FROM (SELECT DISTINCT item_id FROM leases WHERE expires_at > @now AND reviewer_id != @me) l CROSS JOIN hqa_items i ON i.id = l.item_id
              WHERE i.status = 'pending' AND NOT (${SLOT_FREE_FOR_ME}))
         SELECT (SELECT COALESCE(SUM(n), 0) FROM item_status_counts WHERE status = 'pending')
           - (SELECT COUNT(*) FROM excluded)
           + (SELECT COUNT(*) FROM hqa_items i WHERE i.status = 'in_review' AND ${COUNTED_FOR_ME}) AS n`,
      )
      .get({ me: reviewerId, now, k }) as { n: number }
  ).n;
}

/**
 * Of those, the items assigned to the caller or to one of their named queues: "N assigned to
 * you". Walked from the assignments (CROSS JOIN keeps them the outer loop), not from every open item.
 */
export function assignedAvailableFor(db: Db, reviewerId: number, now: string, k: number): number {
  return (
    statement(db,
        `SELECT COUNT(*) AS n FROM (
            SELECT a.item_id FROM item_assignments a WHERE a.reviewer_id = @me
            UNION SELECT a.item_id FROM item_assignments a JOIN review_queue_members m ON m.queue_id = a.queue_id WHERE m.user_id = @me) mine
          CROSS JOIN hqa_items i ON i.id = mine.item_id
          WHERE i.status IN ('pending', 'in_review') AND ${NOT_AUTHOR} AND ${NOT_ARCHIVED} AND ${NOT_RETIRED} AND ${NOT_REVIEWED_BY_ME} AND ${SLOT_FREE_FOR_ME}`,
      )
      .get({ me: reviewerId, now, k }) as { n: number }
  ).n;
}

export function leaseCountsByReviewer(db: Db, now: string): Map<number, number> {
  const rows = statement(db, 'SELECT reviewer_id, COUNT(*) AS n FROM leases WHERE expires_at > ? GROUP BY reviewer_id').all(now) as { reviewer_id: number; n: number }[];
  return new Map(rows.map((r) => [r.reviewer_id, r.n]));
}
