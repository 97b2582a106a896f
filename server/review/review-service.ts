import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import { reclassifyItem } from '../items/item-validity';
import type { Adjudication, QueueFilters, ReviewTask, SubmittedReview, SubmittedStatus, SubmitReviewResponse } from '../../shared/api/review';
import type { ItemDetail } from '../../shared/api/items';
import type { ItemStatus, RequeueReason } from '../../shared/domain/generation';
import { agreedAnswer, answerTypeProblem, checkAnswer, type AnswerCheck } from '../../shared/review/answer-checks';
import { consensus } from '../../shared/review/consensus';
import { leaseEndedMessage } from '../../shared/domain/review';
import { sameAnswer } from '../../shared/table/answer-compare';
import type { AnswerType } from '../../shared/table/answers';
import { DomainError, notFound } from '../domain-error';
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
  leaseEnding,
  type LeaseRef,
  liveLeaseCount,
  nowIso,
  renewLease,
  retractItemReviews,
  retractReview,
  setFinalAnswer,
  setItemStatus,
  setRequeueReason,
  standingCorrections,
  standingDecisions,
  standingReviewers,
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

/** The reviewer's undo deadline for a review stored at `createdAt`. */
export const undoDeadline = (createdAt: string) => new Date(Date.parse(createdAt) + UNDO_WINDOW_MS).toISOString();

/**
 * Refuses an answer a person proposes (a reviewer's correction, an adjudicator's final answer)
 * that could not be the item's: a numeric item's answer is a number, a Yes/No item's Yes or No
 * (answer-checks.ts). A 400 naming the field and the item.
 */
export function refuseMistypedAnswer(answer: string | undefined, itemAnswerType: AnswerType, itemId: number, field: string): void {
  if (answer === undefined) return;
  const problem = answerTypeProblem(answer, itemAnswerType);
  if (problem) throw new DomainError('bad_request', `${field}: ${problem} (item ${itemId})`, field);
}

/**
 * The reviewers whose verdicts the item's outcome rests on, when it rests on more than one
 * reviewer's (k ≥ 2, or reviews standing beside each other): blind review tells them nothing of
 * it (events, the submit response). Empty when one reviewer's review alone decides it.
 */
export function sealedFrom(db: Db, itemId: number): number[] {
  const reviewers = standingReviewers(db, itemId);
  return getSettings(db).reviews_per_item > 1 || new Set(reviewers).size > 1 ? reviewers : [];
}

/** The corrections earlier reviewers proposed for the item, each once, checked: what its next reviewer is shown, anonymous. */
function proposedAnswers(db: Db, item: ItemDetail): AnswerCheck[] {
  const distinct: string[] = [];
  for (const answer of standingCorrections(db, item.id)) if (!distinct.some((known) => sameAnswer(known, answer))) distinct.push(answer);
  return distinct.map((answer) => checkAnswer(answer, item));
}

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
    proposed_answers: proposedAnswers(db, item),
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

/**
 * Refuses, with `lease_ended` and the reason, a submit or renewal under a lease the workbench
 * ended for the reviewer (a change of k): without it they would read "already decided" or "no
 * live lease" and could not tell why, or retry the same item.
 */
function refuseEndedLease(db: Db, itemId: number, reviewerId: number): void {
  const ending = leaseEnding(db, itemId, reviewerId);
  if (ending) throw new DomainError('lease_ended', leaseEndedMessage(itemId, ending));
}

export function renew(db: Db, itemId: number, reviewerId: number): string {
  const expiresAt = nowIso(getSettings(db).lease_seconds * 1000);
  if (!renewLease(db, itemId, reviewerId, nowIso(), expiresAt)) {
    refuseEndedLease(db, itemId, reviewerId);
    throw new DomainError('conflict', `you hold no live lease on item ${itemId}; it went back to the queue`);
  }
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

/**
 * Applies the consensus rule once k standing reviews are in. An accepted item takes a corrected
 * answer only when the accepting reviews agree on it (each gives its correction or the item's
 * answer as it is; one review, k = 1, agrees with itself): when they give different answers the
 * item goes to adjudication, where the curator sees them all. A corrected question is the
 * latest accepting review's. The one rule: a submit and a change of k (`reviews-per-item.ts`)
 * both decide through it. `userId`: who caused the decision, for the answer's history.
 */
export function decide(db: Db, itemId: number, now: string, userId: number | null): ItemStatus {
  const settings = getSettings(db);
  const reviews = standingDecisions(db, itemId);
  const outcome = consensus(
    reviews.map((r) => r.decision),
    settings.reviews_per_item,
    settings.consensus_rule,
  );
  if (!outcome) return refreshOpenStatus(db, itemId, now) ?? 'in_review';
  const accepting = reviews.filter((r) => r.decision === 'accept');
  const state = itemState(db, itemId);
  const agreement = outcome === 'accepted' && state ? agreedAnswer(state.answer, accepting.map((r) => r.corrected_answer)) : null;
  const status: ItemStatus = agreement?.agreed === false ? 'needs_adjudication' : outcome;
  setItemStatus(db, itemId, status);
  if (status === 'accepted' && agreement?.agreed === true) {
    const question = accepting.filter((r) => r.corrected_question !== null).at(-1)?.corrected_question ?? null;
    const from = accepting.filter((r) => r.corrected_answer !== null || r.corrected_question !== null).at(-1);
    if (from && (agreement.answer !== null || question !== null)) {
      applyFinalAnswer(db, { itemId, answer: agreement.answer, question, source: 'review', reviewId: from.id, userId });
    }
  }
  return status;
}

/** Ends the reviewer's live lease on the item as their review is stored; a conflict naming the item when they hold none. */
export function consumeLease(db: Db, itemId: number, reviewerId: number, now: string): void {
  if (!deleteLiveLease(db, itemId, reviewerId, now)) {
    refuseEndedLease(db, itemId, reviewerId);
    throw new DomainError('conflict', `you hold no live lease on item ${itemId} (not claimed, or the lease ran out): claim it to review it; your review was not stored`);
  }
}

/** What a submit stored, for the command's after-effects. */
export interface SubmitOutcome {
  /** What the reviewer is told (blind: no outcome that rests on others' verdicts). */
  response: SubmitReviewResponse;
  /** The item's status now. */
  status: ItemStatus;
  /** Reviewers who may not learn that status (`sealedFrom`): events carry it to everyone else. */
  sealedFrom: number[];
}

/** What a reviewer whose review alone decided the item is told of it; `submitted` for anything else. */
const ownOutcome = (status: ItemStatus): SubmittedStatus => (status === 'accepted' || status === 'rejected' ? status : 'submitted');

/**
 * Stores a review. The caller must hold a live lease on the item: a review without a claim, or
 * after the lease ran out (its slot may have gone to someone else), is refused — claiming again
 * is the way back. The author of a hand-written item never reviews it. A corrected answer that
 * could not be the item's is refused (400 naming `body.corrected_answer`). Review, lease
 * release and the consensus decision are one transaction. The response is blind: the item's
 * status only when this review alone decided it, else `submitted`; and no undo for a review
 * that decided the item together with others.
 */
export function submitReview(db: Db, itemId: number, reviewerId: number, review: SubmittedReview): SubmitOutcome {
  return immediateTransaction(db, () => {
    const now = nowIso();
    const state = itemState(db, itemId);
    if (!state) throw notFound(`item ${itemId}`);
    if (state.created_by === reviewerId) throw new DomainError('forbidden', `you wrote item ${itemId}: its author cannot review it`);
    if (DECIDED.includes(state.status)) {
      refuseEndedLease(db, itemId, reviewerId);
      throw new DomainError('conflict', `item ${itemId} is already ${state.status}`);
    }
    if (hasStandingReview(db, itemId, reviewerId)) throw new DomainError('conflict', `you already reviewed item ${itemId}`);
    refuseMistypedAnswer(review.corrected_answer, state.answer_type, itemId, 'body.corrected_answer');
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
    const sealed = sealedFrom(db, itemId);
    const shared = sealed.length > 0;
    return {
      response: {
        review_id: stored.id,
        item_status: shared ? 'submitted' : ownOutcome(status),
        undo_until: shared && DECIDED.includes(status) ? null : undoDeadline(stored.created_at),
      },
      status,
      sealedFrom: sealed,
    };
  });
}

/** The refusal of an undo whose review decided the item with others' (blind: it names no outcome). */
export const decidedWithOthers = (reviewId: number, itemId: number) =>
  new DomainError('conflict', `review ${reviewId} counts toward the decision on item ${itemId} together with other reviewers' reviews: it can no longer be taken back`);

/**
 * Takes back the caller's own review within the window; the item is leased to them again. Only
 * a review that has not decided the item together with others: at k = 1 one's own deciding
 * review may be taken back (the outcome rests on nobody else), at k ≥ 2 only one the item still
 * waits on others after — else a reviewer could read the outcome and change their verdict.
 */
export function undoReview(db: Db, reviewId: number, reviewerId: number): { task: ReviewTask; itemId: number; status: ItemStatus; from: ItemStatus | null } {
  return immediateTransaction(db, () => {
    const review = getReviewOwner(db, reviewId);
    if (!review || review.reviewer_id !== reviewerId) throw notFound(`review ${reviewId}`);
    if (review.retracted_at) throw new DomainError('conflict', `review ${reviewId} was already taken back`);
    if (Date.now() - Date.parse(review.created_at) > UNDO_WINDOW_MS) throw new DomainError('conflict', `the ${UNDO_WINDOW_MS / 1000} s undo window of review ${reviewId} has passed`);
    const state = itemState(db, review.item_id);
    const decided = state !== null && DECIDED.includes(state.status);
    // Before the adjudication check: "adjudicated since" would tell the reviewers of a split that it split.
    if (decided && sealedFrom(db, review.item_id).length > 0) throw decidedWithOthers(reviewId, review.item_id);
    if (adjudicatedSince(db, review.item_id, review.created_at)) throw new DomainError('conflict', `item ${review.item_id} was adjudicated since`);
    retractReview(db, reviewId, 'undo');
    if (decided) {
      setItemStatus(db, review.item_id, 'in_review');
      applyFinalAnswer(db, { itemId: review.item_id, answer: null, question: null, source: 'undo', reviewId, userId: reviewerId });
    }
    const lease = insertLease(db, review.item_id, reviewerId, nowIso(getSettings(db).lease_seconds * 1000));
    setItemStatus(db, review.item_id, 'in_review');
    return { task: buildTask(db, review.item_id, lease), itemId: review.item_id, status: 'in_review' as ItemStatus, from: state?.status ?? null };
  });
}

export function adjudicate(
  db: Db,
  itemId: number,
  curatorId: number,
  input: Adjudication,
): { status: ItemStatus; from: ItemStatus } {
  return immediateTransaction(db, () => {
    const state = itemState(db, itemId);
    if (!state) throw notFound(`item ${itemId}`);
    if (!DECIDED.includes(state.status)) throw new DomainError('conflict', `item ${itemId} is ${state.status}: it has not had its reviews yet`);
    refuseMistypedAnswer(input.final_answer, state.answer_type, itemId, 'body.final_answer');
    insertAdjudication(db, itemId, curatorId, input.decision, input.note);
    const status: ItemStatus = input.decision === 'accept' ? 'accepted' : 'rejected';
    setItemStatus(db, itemId, status);
    if (input.final_answer !== undefined || input.final_question !== undefined) {
      applyFinalAnswer(db, { itemId, answer: input.final_answer ?? null, question: input.final_question ?? null, source: 'adjudication', reviewId: null, userId: curatorId });
    }
    return { status, from: state.status };
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
