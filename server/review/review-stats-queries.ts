import type { Db } from '../../db/database';
import { statement } from '../../db/statements';

/** The SQL of review figures (server/review/review-stats.ts computes them from these rows). */

export interface OwnReviewRow {
  decision: string;
  time_spent_ms: number;
  created_at: string;
}

/** A reviewer's standing (not retracted) reviews. */
export function listOwnReviews(db: Db, reviewerId: number): OwnReviewRow[] {
  return statement(db, 'SELECT decision, time_spent_ms, created_at FROM reviews WHERE reviewer_id = ? AND retracted_at IS NULL').all(
    reviewerId,
  ) as OwnReviewRow[];
}

export interface DecidedItemRow {
  chart_type: string;
  proposal_id: number | null;
  proposal_text: string | null;
  status: string;
}

/** Every accepted or rejected item with its chart type and proposal. */
export function listDecidedItems(db: Db): DecidedItemRow[] {
  return statement(
    db,
    `SELECT c.chart_type, i.proposal_id, p.text AS proposal_text, i.status FROM hqa_items i JOIN charts c ON c.id = i.chart_id
     LEFT JOIN proposals p ON p.id = i.proposal_id WHERE i.status IN ('accepted', 'rejected')`,
  ).all() as DecidedItemRow[];
}

export interface VerdictRow {
  item_id: number;
  rationality: number;
  correctness: number;
  layout: number;
}

/** The criteria verdicts of items with at least two standing reviews (agreement needs two), by item. */
export function listVerdictsOfMultiplyReviewed(db: Db): VerdictRow[] {
  return statement(
    db,
    `SELECT item_id, rationality, correctness, layout FROM reviews WHERE retracted_at IS NULL
     AND item_id IN (SELECT item_id FROM reviews WHERE retracted_at IS NULL GROUP BY item_id HAVING COUNT(*) >= 2) ORDER BY item_id`,
  ).all() as VerdictRow[];
}

/** Standing reviews per day, the last 30 days with any, newest first. */
export function listDailyReviewCounts(db: Db): { day: string; reviews: number }[] {
  return statement(
    db,
    'SELECT substr(created_at, 1, 10) AS day, COUNT(*) AS reviews FROM reviews WHERE retracted_at IS NULL GROUP BY day ORDER BY day DESC LIMIT 30',
  ).all() as { day: string; reviews: number }[];
}

/** Every standing review's reviewer name and time spent. */
export function listReviewTimes(db: Db): { reviewer: string; time_spent_ms: number }[] {
  return statement(
    db,
    'SELECT u.username AS reviewer, r.time_spent_ms FROM reviews r JOIN users u ON u.id = r.reviewer_id WHERE r.retracted_at IS NULL',
  ).all() as { reviewer: string; time_spent_ms: number }[];
}
