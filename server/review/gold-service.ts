import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import type { CalibrationResponse, GoldAgreement, GoldState, GoldVerdicts } from '../../shared/api/gold';
import type { ReviewTask, SubmittedReview, SubmitReviewResponse } from '../../shared/api/review';
import type { ItemStatus } from '../../shared/domain/generation';
import { CRITERIA } from '../../shared/domain/review';
import { DomainError, notFound } from '../domain-error';
import type { DomainEventEmitter } from '../events/event-bus';
import { getSettings } from '../settings/settings-queries';
import {
  acceptedReviewVerdicts,
  countClaimableGold,
  deleteGold,
  deleteGoldReview,
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
import { buildTask, consumeLease, decidedWithOthers, refuseMistypedAnswer, undoDeadline, UNDO_WINDOW_MS } from './review-service';

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
    if (state.status !== 'accepted') throw new DomainError('conflict', `item ${itemId} is ${state.status}: only an accepted item can be gold`);
    upsertGold(db, itemId, acceptedReviewVerdicts(db, itemId) ?? ALL_PASS, curatorId);
  });
  return goldState(db, itemId);
}

/**
 * Marks many items gold at once (the Items page's bulk action), each as `markGold` would, with
 * one audit entry per item marked, all in one transaction. Items not accepted, or gold already,
 * are skipped and counted.
 */
export function markGoldMany(db: Db, events: DomainEventEmitter, itemIds: readonly number[], curatorId: number): { marked: number; skipped: number } {
  return immediateTransaction(db, () => {
    let marked = 0;
    for (const itemId of itemIds) {
      if (itemState(db, itemId)?.status !== 'accepted' || goldOf(db, itemId) !== null) continue;
      upsertGold(db, itemId, acceptedReviewVerdicts(db, itemId) ?? ALL_PASS, curatorId);
      events.emit('item.gold_marked', { curator_id: curatorId, item_id: itemId });
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
 * the payload tells it apart (no decided status, no final answer another review settled, no
 * answers proposed: a regular item's first reviewer sees none). Any other task comes back as it is.
 */
export function disguiseGoldTask<T extends ReviewTask | null>(db: Db, task: T): T {
  if (task === null || !isServedAsGold(db, task.item.id)) return task;
  return { ...task, item: { ...task.item, status: 'in_review', final_answer: null, requeue_reason: null }, proposed_answers: [] };
}

/**
 * What a regular item shows the reviewer after their review, which a gold item must show too:
 * at k = 1 their own decision decided it; at k ≥ 2 it waits on (or was decided with) others.
 */
function shownAfterReview(decision: SubmittedReview['decision'], k: number): ItemStatus {
  if (k > 1) return 'in_review';
  return decision === 'accept' ? 'accepted' : 'rejected';
}

/** A gold review stored, as `submitReview`'s outcome reads for a regular one. */
export interface GoldSubmitOutcome {
  response: SubmitReviewResponse;
  /** The item's status as the reviewer is shown it (their events say this, items/blind-view-queries.ts the same). */
  shown: ItemStatus;
}

/** The submit response of a gold review: what a regular review's reads at this k (review-service.ts `submitReview`). */
function goldResponse(reviewId: number, createdAt: string, decision: SubmittedReview['decision'], k: number): SubmitReviewResponse {
  // At k ≥ 2 a regular review is told `submitted`; the one that decides the item with others cannot be undone, and
  // neither can a gold review, whose outcome (the agreement with gold) rests on another's verdict.
  if (k > 1) return { review_id: reviewId, item_status: 'submitted', undo_until: null };
  return { review_id: reviewId, item_status: decision === 'accept' ? 'accepted' : 'rejected', undo_until: undoDeadline(createdAt) };
}

/**
 * Stores a review of a gold item the reviewer holds a live lease on, compared with the gold
 * decision; null when the item is not served as gold (a regular review). Its corrected answer is
 * checked as a regular one is (400 naming `body.corrected_answer`) and kept. The response reads
 * as a regular one's would: at k = 1 this review alone deciding; at k ≥ 2 `submitted`, not
 * to be undone.
 */
export function submitGoldReview(db: Db, itemId: number, reviewerId: number, review: SubmittedReview): GoldSubmitOutcome | null {
  return immediateTransaction(db, () => {
    const gold = isServedAsGold(db, itemId) ? goldOf(db, itemId) : null;
    if (!gold) return null;
    if (hasGoldReview(db, itemId, reviewerId)) throw new DomainError('conflict', `you already reviewed item ${itemId}`);
    const state = itemState(db, itemId);
    if (state) refuseMistypedAnswer(review.corrected_answer, state.answer_type, itemId, 'body.corrected_answer');
    consumeLease(db, itemId, reviewerId, nowIso());
    const stored = insertGoldReview(db, {
      itemId,
      reviewerId,
      decision: review.decision,
      criteria: review.criteria,
      gold: gold.verdicts,
      feedback: review.feedback,
      correctedAnswer: review.corrected_answer ?? null,
      timeSpentMs: review.time_spent_ms,
    });
    const k = getSettings(db).reviews_per_item;
    return { response: goldResponse(stored.id, stored.created_at, review.decision, k), shown: shownAfterReview(review.decision, k) };
  });
}

/** The review of this id is a gold review (ids are one sequence with reviews', review-queries.ts `NEXT_REVIEW_ID`). */
export const isGoldReviewId = (db: Db, reviewId: number) => goldReviewOwner(db, reviewId) !== null;

/**
 * Takes back the caller's own gold review within the undo window; the item is leased to them
 * again. As a regular review: at k = 1 (their review alone decided it); at k ≥ 2 refused as a
 * review that decided the item with others is — the outcome, agreement with gold, rests on
 * another's verdict.
 */
export function undoGoldReview(db: Db, reviewId: number, reviewerId: number): { task: ReviewTask; itemId: number } {
  return immediateTransaction(db, () => {
    const review = goldReviewOwner(db, reviewId);
    if (!review || review.reviewer_id !== reviewerId) throw notFound(`review ${reviewId}`);
    if (Date.now() - Date.parse(review.created_at) > UNDO_WINDOW_MS) throw new DomainError('conflict', `the ${UNDO_WINDOW_MS / 1000} s undo window of review ${reviewId} has passed`);
    if (getSettings(db).reviews_per_item > 1) throw decidedWithOthers(reviewId, review.item_id);
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
