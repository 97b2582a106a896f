import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import { NEXT_REVIEW_ID, NOT_ARCHIVED, NOT_RETIRED } from './review-queries';
import type { GoldVerdicts } from '../../shared/api/gold';
import type { ReviewCriteria } from '../../shared/api/review';
import type { Decision } from '../../shared/domain/review';

/** All SQL of gold items (migration 017): marks, the claim's gold pick, gold reviews, calibration. */

const bit = (pass: boolean) => (pass ? 1 : 0);

interface GoldRow {
  rationality: number;
  correctness: number;
  layout: number;
  marked_at: string;
  marked_by: string | null;
}

export function goldOf(db: Db, itemId: number): { verdicts: GoldVerdicts; marked_at: string; marked_by: string | null } | null {
  const row = statement(db,
    `SELECT g.rationality, g.correctness, g.layout, g.marked_at, u.username AS marked_by
       FROM gold_items g LEFT JOIN users u ON u.id = g.marked_by WHERE g.item_id = ?`,
  ).get(itemId) as GoldRow | undefined;
  if (!row) return null;
  return {
    verdicts: { rationality: row.rationality === 1, correctness: row.correctness === 1, layout: row.layout === 1 },
    marked_at: row.marked_at,
    marked_by: row.marked_by,
  };
}

export function goldReviewCount(db: Db, itemId: number): number {
  return (statement(db, 'SELECT COUNT(*) AS n FROM gold_reviews WHERE item_id = ?').get(itemId) as { n: number }).n;
}

export function goldItemCount(db: Db): number {
  return (statement(db, 'SELECT COUNT(*) AS n FROM gold_items').get() as { n: number }).n;
}

/**
 * The criteria of the item's latest standing accepting review: what "the accepted review said".
 * Null for an item accepted without one (by adjudication alone).
 */
export function acceptedReviewVerdicts(db: Db, itemId: number): GoldVerdicts | null {
  const row = statement(db,
    `SELECT rationality, correctness, layout FROM reviews
      WHERE item_id = ? AND retracted_at IS NULL AND decision = 'accept' ORDER BY id DESC LIMIT 1`,
  ).get(itemId) as { rationality: number; correctness: number; layout: number } | undefined;
  return row ? { rationality: row.rationality === 1, correctness: row.correctness === 1, layout: row.layout === 1 } : null;
}

export function upsertGold(db: Db, itemId: number, verdicts: GoldVerdicts, curatorId: number): void {
  statement(db,
    `INSERT INTO gold_items (item_id, rationality, correctness, layout, marked_by) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (item_id) DO NOTHING`,
  ).run(itemId, bit(verdicts.rationality), bit(verdicts.correctness), bit(verdicts.layout), curatorId);
}

export function deleteGold(db: Db, itemId: number): void {
  statement(db, 'DELETE FROM gold_items WHERE item_id = ?').run(itemId);
}

/**
 * How many gold items the reviewer may still be served (the claim's gold step, no filters): part
 * of their queue's size. Walked from the gold items (CROSS JOIN), not from every accepted item.
 */
export function countClaimableGold(db: Db, reviewerId: number): number {
  return (statement(db,
    `SELECT COUNT(*) AS n FROM gold_items g CROSS JOIN hqa_items i ON i.id = g.item_id
      WHERE i.status = 'accepted' AND i.created_by IS NOT @me AND ${NOT_ARCHIVED} AND ${NOT_RETIRED}
        AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.item_id = g.item_id AND r.reviewer_id = @me)
        AND NOT EXISTS (SELECT 1 FROM gold_reviews gr WHERE gr.item_id = g.item_id AND gr.reviewer_id = @me)`,
  ).get({ me: reviewerId }) as { n: number }).n;
}

/** The item is gold and still accepted: a review of it is a gold review. */
export function isServedAsGold(db: Db, itemId: number): boolean {
  return statement(db,
    "SELECT 1 FROM gold_items g JOIN hqa_items i ON i.id = g.item_id WHERE g.item_id = ? AND i.status = 'accepted'",
  ).get(itemId) !== undefined;
}

/** The gold review of this id (ids are shared with reviews, `NEXT_REVIEW_ID`): null when the id names a regular review or nothing. */
export function goldReviewOwner(db: Db, id: number): { item_id: number; reviewer_id: number; created_at: string } | null {
  return (statement(db, 'SELECT item_id, reviewer_id, created_at FROM gold_reviews WHERE id = ?').get(id) as
    | { item_id: number; reviewer_id: number; created_at: string }
    | undefined) ?? null;
}

export function deleteGoldReview(db: Db, id: number): void {
  statement(db, 'DELETE FROM gold_reviews WHERE id = ?').run(id);
}

export function hasGoldReview(db: Db, itemId: number, reviewerId: number): boolean {
  return statement(db, 'SELECT 1 FROM gold_reviews WHERE item_id = ? AND reviewer_id = ?').get(itemId, reviewerId) !== undefined;
}

export function insertGoldReview(
  db: Db,
  r: {
    itemId: number;
    reviewerId: number;
    decision: Decision;
    criteria: ReviewCriteria;
    gold: GoldVerdicts;
    feedback: string;
    correctedAnswer: string | null;
    timeSpentMs: number;
  },
): { id: number; created_at: string } {
  return statement(db,
    `INSERT INTO gold_reviews (id, item_id, reviewer_id, decision, rationality, correctness, layout,
        gold_rationality, gold_correctness, gold_layout, feedback, corrected_answer, time_spent_ms)
     VALUES (${NEXT_REVIEW_ID}, @item, @reviewer, @decision, @rat, @cor, @lay, @grat, @gcor, @glay, @feedback, @answer, @ms)
     RETURNING id, created_at`,
  ).get({
    item: r.itemId,
    reviewer: r.reviewerId,
    decision: r.decision,
    rat: bit(r.criteria.rationality.pass),
    cor: bit(r.criteria.correctness.pass),
    lay: bit(r.criteria.layout.pass),
    grat: bit(r.gold.rationality),
    gcor: bit(r.gold.correctness),
    glay: bit(r.gold.layout),
    feedback: r.feedback,
    answer: r.correctedAnswer,
    ms: r.timeSpentMs,
  }) as { id: number; created_at: string };
}

/** The reviewer's gold reviews as their own figures (Stats' "You") read reviews. */
export function listOwnGoldReviews(db: Db, reviewerId: number): { decision: Decision; time_spent_ms: number; created_at: string }[] {
  return statement(db, 'SELECT decision, time_spent_ms, created_at FROM gold_reviews WHERE reviewer_id = ?').all(reviewerId) as {
    decision: Decision;
    time_spent_ms: number;
    created_at: string;
  }[];
}

/** Agreement sums per reviewer and ISO week (`2026-W49`), oldest week first. */
export function goldAgreementByWeek(db: Db): { reviewer_id: number; reviewer: string; week: string; reviews: number; rationality: number; correctness: number; layout: number }[] {
  return statement(db,
    `SELECT gr.reviewer_id, u.username AS reviewer, strftime('%G-W%V', gr.created_at) AS week, COUNT(*) AS reviews,
        SUM(gr.rationality = gr.gold_rationality) AS rationality,
        SUM(gr.correctness = gr.gold_correctness) AS correctness,
        SUM(gr.layout = gr.gold_layout) AS layout
       FROM gold_reviews gr JOIN users u ON u.id = gr.reviewer_id
      GROUP BY gr.reviewer_id, week ORDER BY u.username, week`,
  ).all() as { reviewer_id: number; reviewer: string; week: string; reviews: number; rationality: number; correctness: number; layout: number }[];
}
