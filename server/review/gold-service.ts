import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import type { CalibrationResponse, GoldAgreement, GoldState, GoldVerdicts } from '../../shared/api/gold';
import type { ReviewTask, SubmittedReview, SubmitReviewResponse } from '../../shared/api/review';
import type { ItemStatus } from '../../shared/domain/generation';
import { CRITERIA } from '../../shared/domain/review';
import { recordAudit } from '../audit/audit-log';
import { HttpError, notFound } from '../http/http-error';
import { getSettings } from '../settings/settings-queries';
import {
  acceptedReviewVerdicts,
  countClaimableGold,
  deleteGold,
  deleteGoldReview,
  GOLD_REVIEW_ID_BASE,
  goldAgreementByWeek,
  goldItemCount,
  goldOf,
  goldReviewCount,
  goldReviewOwner,
  hasGoldReview,
  insertGoldReview,
  isServedAsGold,
  upsertGold,
} from './gold-queries';
import { insertLease, itemState, nowIso } from './review-queries';
import { buildTask, consumeLease, UNDO_WINDOW_MS } from './review-service';

/**
 * Gold items (issue 16 point 5): accepted items a curator marked, served to reviewers as part of
 * their queue to calibrate them. A review of a gold item is compared with the gold decision and
 * kept apart from the item's own reviews: the item stays accepted, its consensus untouched.
 */

const ALL_PASS: GoldVerdicts = { rationality: true, correctness: true, layout: true };

export function goldState(db: Db, itemId: number): GoldState {
  if (!itemState(db, itemId)) throw notFound(`item ${itemId}`);
  const gold = goldOf(db, itemId);
  return {
    item_id: itemId,
    gold: gold !== null,
    verdicts: gold?.verdicts ?? null,
    marked_by: gold?.marked_by ?? null,
    marked_at: gold?.marked_at ?? null,
    reviews: goldReviewCount(db, itemId),
  };
}

/** Marks an accepted item gold with its accepted review's verdicts (all pass when it was accepted by adjudication alone). */
export function markGold(db: Db, itemId: number, curatorId: number): GoldState {
  immediateTransaction(db, () => {
    const state = itemState(db, itemId);
    if (!state) throw notFound(`item ${itemId}`);
    if (state.status !== 'accepted') throw new HttpError('conflict', `item ${itemId} is ${state.status}: only an accepted item can be gold`);
    upsertGold(db, itemId, acceptedReviewVerdicts(db, itemId) ?? ALL_PASS, curatorId);
  });
  return goldState(db, itemId);
}

/**
 * Marks many items gold at once (the Items page's bulk action), each as `markGold` would, with
 * one audit entry per item marked, all in one transaction. Items not accepted, or gold already,
 * are skipped and counted.
 */
export function markGoldMany(db: Db, itemIds: readonly number[], curatorId: number): { marked: number; skipped: number } {
  return immediateTransaction(db, () => {
    let marked = 0;
    for (const itemId of itemIds) {
      if (itemState(db, itemId)?.status !== 'accepted' || goldOf(db, itemId) !== null) continue;
      upsertGold(db, itemId, acceptedReviewVerdicts(db, itemId) ?? ALL_PASS, curatorId);
      recordAudit(db, { actor_id: curatorId, action: 'item.gold_marked', target_type: 'item', target_id: itemId });
      marked += 1;
    }
    return { marked, skipped: itemIds.length - marked };
  });
}

export function unmarkGold(db: Db, itemId: number): GoldState {
  if (!itemState(db, itemId)) throw notFound(`item ${itemId}`);
  deleteGold(db, itemId);
  return goldState(db, itemId);
}

/** The gold items a reviewer's queue size includes: those they may still be served, while gold is in play. */
export function goldInQueue(db: Db, reviewerId: number): number {
  return getSettings(db).gold_share > 0 ? countClaimableGold(db, reviewerId) : 0;
}

/**
 * What a reviewer is shown of a gold item: as if it were in review like the rest, so nothing in
 * the payload tells it apart (no decided status, no final answer another review settled). Any
 * other task comes back as it is.
 */
export function disguiseGoldTask<T extends ReviewTask | null>(db: Db, task: T): T {
  if (task === null || !isServedAsGold(db, task.item.id)) return task;
  return { ...task, item: { ...task.item, status: 'in_review', final_answer: null, requeue_reason: null } };
}

/**
 * Stores a review of a gold item the reviewer holds a live lease on, compared with the gold
 * decision; null when the item is not served as gold (a regular review). The response reads as a
 * regular one's would with this review alone deciding at k = 1, else "in review".
 */
export function submitGoldReview(db: Db, itemId: number, reviewerId: number, review: SubmittedReview): SubmitReviewResponse | null {
  return immediateTransaction(db, () => {
    const gold = isServedAsGold(db, itemId) ? goldOf(db, itemId) : null;
    if (!gold) return null;
    if (hasGoldReview(db, itemId, reviewerId)) throw new HttpError('conflict', `you already reviewed item ${itemId}`);
    consumeLease(db, itemId, reviewerId, nowIso());
    const stored = insertGoldReview(db, {
      itemId,
      reviewerId,
      decision: review.decision,
      criteria: review.criteria,
      gold: gold.verdicts,
      feedback: review.feedback,
      timeSpentMs: review.time_spent_ms,
    });
    const k = getSettings(db).reviews_per_item;
    const shown: ItemStatus = k > 1 ? 'in_review' : review.decision === 'accept' ? 'accepted' : 'rejected';
    return { review_id: stored.id, item_status: shown, undo_until: new Date(Date.parse(stored.created_at) + UNDO_WINDOW_MS).toISOString() };
  });
}

export const isGoldReviewId = (reviewId: number) => reviewId > GOLD_REVIEW_ID_BASE;

/** Takes back the caller's own gold review within the undo window; the item is leased to them again. */
export function undoGoldReview(db: Db, reviewId: number, reviewerId: number): { task: ReviewTask; itemId: number } {
  return immediateTransaction(db, () => {
    const review = goldReviewOwner(db, reviewId);
    if (!review || review.reviewer_id !== reviewerId) throw notFound(`review ${reviewId}`);
    if (Date.now() - Date.parse(review.created_at) > UNDO_WINDOW_MS) throw new HttpError('conflict', `the ${UNDO_WINDOW_MS / 1000} s undo window of review ${reviewId} has passed`);
    deleteGoldReview(db, reviewId);
    const lease = insertLease(db, review.item_id, reviewerId, nowIso(getSettings(db).lease_seconds * 1000));
    return { task: disguiseGoldTask(db, buildTask(db, review.item_id, lease)), itemId: review.item_id };
  });
}

function agreement(reviews: number, sums: Record<(typeof CRITERIA)[number], number>): GoldAgreement {
  const share = (n: number) => (reviews > 0 ? n / reviews : null);
  return { reviews, rationality: share(sums.rationality), correctness: share(sums.correctness), layout: share(sums.layout) };
}

/** Each reviewer's agreement with gold per criterion, overall and per ISO week; flagged under the threshold. */
export function calibration(db: Db): CalibrationResponse {
  const threshold = getSettings(db).gold_agreement_threshold;
  const byReviewer = new Map<number, { reviewer: string; rows: ReturnType<typeof goldAgreementByWeek> }>();
  for (const row of goldAgreementByWeek(db)) {
    const entry = byReviewer.get(row.reviewer_id) ?? { reviewer: row.reviewer, rows: [] };
    entry.rows.push(row);
    byReviewer.set(row.reviewer_id, entry);
  }
  const reviewers = [...byReviewer].map(([reviewerId, { reviewer, rows }]) => {
    const total = { rationality: 0, correctness: 0, layout: 0 };
    let reviews = 0;
    for (const row of rows) {
      reviews += row.reviews;
      for (const c of CRITERIA) total[c] += row[c];
    }
    const overall = agreement(reviews, total);
    return {
      reviewer_id: reviewerId,
      reviewer,
      overall,
      weeks: rows.map((row) => ({ week: row.week, ...agreement(row.reviews, row) })),
      flagged: CRITERIA.some((c) => (overall[c] ?? 1) < threshold),
    };
  });
  return { threshold, gold_items: goldItemCount(db), reviewers };
}
