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

/** Decided (accepted or rejected) items of one group: how many, and how many of them accepted. */
export interface DecidedCount {
  reviewed: number;
  accepted: number;
}

const DECIDED = "i.status IN ('accepted', 'rejected')";
const COUNTS = "COUNT(*) AS reviewed, SUM(i.status = 'accepted') AS accepted";

/** Decided items counted by their chart's type. */
export function countDecidedByChartType(db: Db): (DecidedCount & { chart_type: string })[] {
  return statement(db, `SELECT c.chart_type, ${COUNTS} FROM hqa_items i JOIN charts c ON c.id = i.chart_id WHERE ${DECIDED} GROUP BY c.chart_type`).all() as (DecidedCount & {
    chart_type: string;
  })[];
}

/** Decided items counted by the proposal they came from (null: written by hand), with its text. */
export function countDecidedByProposal(db: Db): (DecidedCount & { proposal_id: number | null; proposal_text: string | null })[] {
  return statement(
    db,
    `SELECT i.proposal_id, p.text AS proposal_text, ${COUNTS} FROM hqa_items i LEFT JOIN proposals p ON p.id = i.proposal_id WHERE ${DECIDED} GROUP BY i.proposal_id`,
  ).all() as (DecidedCount & { proposal_id: number | null; proposal_text: string | null })[];
}

/** Per item with at least two standing reviews (agreement needs two): how many, and how many passed each criterion. */
export interface VerdictCounts {
  reviews: number;
  rationality: number;
  correctness: number;
  layout: number;
}

export function countVerdictsOfMultiplyReviewed(db: Db): VerdictCounts[] {
  return statement(
    db,
    `SELECT COUNT(*) AS reviews, SUM(rationality) AS rationality, SUM(correctness) AS correctness, SUM(layout) AS layout
     FROM reviews WHERE retracted_at IS NULL GROUP BY item_id HAVING COUNT(*) >= 2`,
  ).all() as VerdictCounts[];
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
