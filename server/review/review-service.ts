import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import { recordAudit } from '../audit/audit-log';
import { reclassifyItem } from '../items/item-validity';
import type { Adjudication, QueueFilters, ReviewTask, SubmittedReview, SubmitReviewResponse } from '../../shared/api/review';
import type { ItemStatus, RequeueReason } from '../../shared/domain/generation';
import { consensus } from '../../shared/review/consensus';
import { HttpError, notFound } from '../http/http-error';
import { itemGroupView } from '../items/item-group-queries';
import { getItemWithChart } from '../items/item-queries';
import { getSettings } from '../settings/settings-queries';
import {
  adjudicatedSince,
  deleteExpiredLeases,
  deleteItemLeases,
  deleteLease,
  deleteLiveLease,
  findNextClaim,
  type GoldPlace,
  getReviewOwner,
  hasStandingReview,
  heldLeases,
  insertAdjudication,
  insertLease,
  insertReview,
  itemState,
  type LeaseRef,
  liveLeaseCount,
  nowIso,
  renewLease,
  retractItemReviews,
  retractReview,
  setFinalAnswer,
  setItemStatus,
  setRequeueReason,
  standingDecisions,
} from './review-queries';

/**
 * The item's final answer/question, and the question's relation to the factual one again: a
 * reviewer's corrected question may ask another question (or bring a different one back).
 */
function applyFinalAnswer(db: Db, input: Parameters<typeof setFinalAnswer>[1]): void {
  setFinalAnswer(db, input);
  reclassifyItem(db, input.itemId);
}

/** A reviewer holds at most this many leases: the item on screen and the prefetched next one. */
export const MAX_LEASES_PER_REVIEWER = 2;
/** How long after submitting a reviewer may take the decision back. */
export const UNDO_WINDOW_MS = 30_000;

const DECIDED: readonly ItemStatus[] = ['accepted', 'rejected', 'needs_adjudication'];

export function buildTask(db: Db, itemId: number, lease: LeaseRef): ReviewTask {
  const found = getItemWithChart(db, itemId);
  if (!found) throw notFound(`item ${itemId}`);
  const { item, chart, groupId } = found;
  // An item over a group: one more query, for its charts; the pane shows the chart it edits.
  const group = groupId === null ? null : itemGroupView(db, groupId, item.edit);
  const shown = group?.charts[(group.edited_chart ?? 1) - 1];
  return {
    item,
    chart: shown
      ? {
          id: shown.id,
          imgname: shown.imgname,
          title: shown.title,
          chart_type: shown.chart_type,
          data_table: shown.data_table,
          has_image: shown.has_image,
          drawing_style: shown.drawing_style,
        }
      : {
          id: item.chart_id,
          imgname: item.imgname,
          title: chart.title,
          chart_type: item.chart_type,
          data_table: chart.data_table,
          has_image: chart.has_image,
          drawing_style: chart.drawing_style,
        },
    group,
    lease_expires_at: lease.expires_at,
    lease_token: lease.token,
  };
}

/** An item with no standing review and no live lease is pending again; one with some is in review. */
export function refreshOpenStatus(db: Db, itemId: number, now: string): ItemStatus | null {
  const state = itemState(db, itemId);
  if (!state || DECIDED.includes(state.status)) return null;
  const busy = standingDecisions(db, itemId).length > 0 || liveLeaseCount(db, itemId, now, -1) > 0;
  const status: ItemStatus = busy ? 'in_review' : 'pending';
  if (status !== state.status) setItemStatus(db, itemId, status);
  return status;
}

/** Returns expired leases to the queue; the holders are returned so they can be told. */
export function sweepExpiredLeases(db: Db): { item_id: number; reviewer_id: number }[] {
  return immediateTransaction(db, () => {
    const now = nowIso();
    const expired = deleteExpiredLeases(db, now);
    for (const lease of expired) refreshOpenStatus(db, lease.item_id, now);
    return expired;
  });
}

/**
 * The caller's next item. Their own live leases come back first (after a reload the item on
 * screen is the same one); else a new item is claimed — in one IMMEDIATE transaction and one
 * SELECT (`findNextClaim`), so no two reviewers get the same slot. Order: items assigned to the
 * caller, items of their named queues, a gold item with probability `gold_share` (calibration,
 * told apart by nothing in the task), the general queue (items already in review, then pending
 * ones, oldest first; with `mismatch_first`, verifier mismatches first), and the gold items left
 * once the general queue is done for them (they are counted in its size, see `goldInQueue`).
 * `gold`: the claimed item is served as gold (its status stays accepted; it takes no slot).
 */
export function claimNext(
  db: Db,
  reviewerId: number,
  filters: QueueFilters & { exclude_item_ids: number[] },
  random: () => number = Math.random,
): { task: ReviewTask | null; claimed: number | null; prefetch: boolean; gold: boolean; expired: { item_id: number; reviewer_id: number }[] } {
  const settings = getSettings(db);
  const gold: GoldPlace = settings.gold_share <= 0 ? 'off' : random() < settings.gold_share ? 'drawn' : 'drained';
  return immediateTransaction(db, () => {
    const now = nowIso();
    const expired = deleteExpiredLeases(db, now);
    for (const lease of expired) refreshOpenStatus(db, lease.item_id, now);
    const held = heldLeases(db, reviewerId, now);
    const resume = held.find((l) => !filters.exclude_item_ids.includes(l.item_id));
    if (resume) return { task: buildTask(db, resume.item_id, resume), claimed: null, prefetch: false, gold: false, expired };
    if (held.length >= MAX_LEASES_PER_REVIEWER) return { task: null, claimed: null, prefetch: false, gold: false, expired };
    const exclude = [...filters.exclude_item_ids, ...held.map((l) => l.item_id)];
    const pick = findNextClaim(db, { reviewerId, now, k: settings.reviews_per_item, filters, exclude, gold });
    if (pick === null) return { task: null, claimed: null, prefetch: false, gold: false, expired };
    const lease = insertLease(db, pick.id, reviewerId, nowIso(settings.lease_seconds * 1000));
    if (!pick.gold) setItemStatus(db, pick.id, 'in_review');
    // Claimed while the reviewer holds another item: the next one, fetched ahead (prefetch-queries.ts).
    return { task: buildTask(db, pick.id, lease), claimed: pick.id, prefetch: held.length > 0, gold: pick.gold, expired };
  });
}

export function renew(db: Db, itemId: number, reviewerId: number): string {
  const expiresAt = nowIso(getSettings(db).lease_seconds * 1000);
  if (!renewLease(db, itemId, reviewerId, nowIso(), expiresAt)) throw new HttpError('conflict', `you hold no live lease on item ${itemId}; it went back to the queue`);
  return expiresAt;
}

/** Ends the reviewer's lease on the item (only the lease of `token`, when given); false when nothing was ended. */
export function release(db: Db, itemId: number, reviewerId: number, token?: string): boolean {
  return immediateTransaction(db, () => {
    const released = deleteLease(db, itemId, reviewerId, token);
    refreshOpenStatus(db, itemId, nowIso());
    return released;
  });
}

/** Applies the consensus rule once k standing reviews are in; accepted items take the latest correction. */
function decide(db: Db, itemId: number, now: string, userId: number): ItemStatus {
  const settings = getSettings(db);
  const reviews = standingDecisions(db, itemId);
  const outcome = consensus(
    reviews.map((r) => r.decision),
    settings.reviews_per_item,
    settings.consensus_rule,
  );
  if (!outcome) return refreshOpenStatus(db, itemId, now) ?? 'in_review';
  setItemStatus(db, itemId, outcome);
  if (outcome === 'accepted') {
    const corrected = reviews.filter((r) => r.decision === 'accept' && (r.corrected_answer !== null || r.corrected_question !== null)).at(-1);
    if (corrected) applyFinalAnswer(db, { itemId, answer: corrected.corrected_answer, question: corrected.corrected_question, source: 'review', reviewId: corrected.id, userId });
  }
  return outcome;
}

/** Ends the reviewer's live lease on the item as their review is stored; a conflict naming the item when they hold none. */
export function consumeLease(db: Db, itemId: number, reviewerId: number, now: string): void {
  if (!deleteLiveLease(db, itemId, reviewerId, now)) {
    throw new HttpError('conflict', `you hold no live lease on item ${itemId} (not claimed, or the lease ran out): claim it to review it; your review was not stored`);
  }
}

/**
 * Stores a review. The caller must hold a live lease on the item: a review without a claim, or
 * after the lease ran out (its slot may have gone to someone else), is refused — claiming again
 * is the way back. The author of a hand-written item never reviews it. Review, lease release
 * and the consensus decision are one transaction.
 */
export function submitReview(db: Db, itemId: number, reviewerId: number, review: SubmittedReview): SubmitReviewResponse {
  return immediateTransaction(db, () => {
    const now = nowIso();
    const state = itemState(db, itemId);
    if (!state) throw notFound(`item ${itemId}`);
    if (state.created_by === reviewerId) throw new HttpError('forbidden', `you wrote item ${itemId}: its author cannot review it`);
    if (DECIDED.includes(state.status)) throw new HttpError('conflict', `item ${itemId} is already ${state.status}`);
    if (hasStandingReview(db, itemId, reviewerId)) throw new HttpError('conflict', `you already reviewed item ${itemId}`);
    consumeLease(db, itemId, reviewerId, now);
    const stored = insertReview(db, {
      itemId,
      reviewerId,
      decision: review.decision,
      criteria: review.criteria,
      feedback: review.feedback,
      correctedAnswer: review.corrected_answer ?? null,
      correctedQuestion: review.corrected_question ?? null,
      complexity: review.complexity ?? null,
      timeSpentMs: review.time_spent_ms,
    });
    const status = decide(db, itemId, now, reviewerId);
    recordAudit(db, { actor_id: reviewerId, action: 'review.submitted', target_type: 'item', target_id: itemId, details: { review_id: stored.id, decision: review.decision, item_status: status } });
    return { review_id: stored.id, item_status: status, undo_until: new Date(Date.parse(stored.created_at) + UNDO_WINDOW_MS).toISOString() };
  });
}

/** Takes back the caller's own review within the window; the item is leased to them again. */
export function undoReview(db: Db, reviewId: number, reviewerId: number): { task: ReviewTask; itemId: number; status: ItemStatus } {
  return immediateTransaction(db, () => {
    const review = getReviewOwner(db, reviewId);
    if (!review || review.reviewer_id !== reviewerId) throw notFound(`review ${reviewId}`);
    if (review.retracted_at) throw new HttpError('conflict', `review ${reviewId} was already taken back`);
    if (Date.now() - Date.parse(review.created_at) > UNDO_WINDOW_MS) throw new HttpError('conflict', `the ${UNDO_WINDOW_MS / 1000} s undo window of review ${reviewId} has passed`);
    if (adjudicatedSince(db, review.item_id, review.created_at)) throw new HttpError('conflict', `item ${review.item_id} was adjudicated since`);
    const state = itemState(db, review.item_id);
    retractReview(db, reviewId, 'undo');
    if (state && DECIDED.includes(state.status)) {
      setItemStatus(db, review.item_id, 'in_review');
      applyFinalAnswer(db, { itemId: review.item_id, answer: null, question: null, source: 'undo', reviewId, userId: reviewerId });
    }
    const lease = insertLease(db, review.item_id, reviewerId, nowIso(getSettings(db).lease_seconds * 1000));
    setItemStatus(db, review.item_id, 'in_review');
    return { task: buildTask(db, review.item_id, lease), itemId: review.item_id, status: 'in_review' as ItemStatus };
  });
}

export function adjudicate(
  db: Db,
  itemId: number,
  curatorId: number,
  input: Adjudication,
): ItemStatus {
  return immediateTransaction(db, () => {
    const state = itemState(db, itemId);
    if (!state) throw notFound(`item ${itemId}`);
    if (!DECIDED.includes(state.status)) throw new HttpError('conflict', `item ${itemId} is ${state.status}: it has not had its reviews yet`);
    insertAdjudication(db, itemId, curatorId, input.decision, input.note);
    const status: ItemStatus = input.decision === 'accept' ? 'accepted' : 'rejected';
    setItemStatus(db, itemId, status);
    if (input.final_answer !== undefined || input.final_question !== undefined) {
      applyFinalAnswer(db, { itemId, answer: input.final_answer ?? null, question: input.final_question ?? null, source: 'adjudication', reviewId: null, userId: curatorId });
    }
    recordAudit(db, { actor_id: curatorId, action: 'item.adjudicated', target_type: 'item', target_id: itemId, details: { decision: input.decision, from: state.status } });
    return status;
  });
}

/**
 * Sends items back to the queue: their reviews are kept but retracted, leases dropped. A curator
 * asks with their id and no reason; the system (a re-import) with a null id and its reason.
 * Inside another transaction it runs as a savepoint of that one.
 */
export function requeue(
  db: Db,
  itemIds: number[],
  curatorId: number | null,
  reason: RequeueReason | null = null,
): { requeued: number[]; releasedLeases: { item_id: number; reviewer_id: number }[] } {
  return immediateTransaction(db, () => {
    const requeued: number[] = [];
    const releasedLeases: { item_id: number; reviewer_id: number }[] = [];
    for (const itemId of itemIds) {
      if (!itemState(db, itemId)) continue;
      retractItemReviews(db, itemId, 'requeue');
      for (const lease of deleteItemLeases(db, itemId)) releasedLeases.push({ item_id: itemId, reviewer_id: lease.reviewer_id });
      setItemStatus(db, itemId, 'pending');
      setRequeueReason(db, itemId, reason);
      applyFinalAnswer(db, { itemId, answer: null, question: null, source: 'requeue', reviewId: null, userId: curatorId });
      requeued.push(itemId);
    }
    return { requeued, releasedLeases };
  });
}
