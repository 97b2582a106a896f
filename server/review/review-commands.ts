import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import type { Adjudication, QueueFilters, ReviewTask, SubmittedReview, SubmitReviewResponse } from '../../shared/api/review';
import type { ItemStatus } from '../../shared/domain/generation';
import type { BulkTarget } from '../../shared/api/assignment';
import type { ReviewEvents } from './review-events';
import type { ReviewsPerItemSettlement } from './reviews-per-item';
import { retireItems } from './assignment-service';
import { disguiseGoldTask, isGoldReviewId, submitGoldReview, undoGoldReview } from './gold-service';
import { adjudicate, claimNext, release, renew, requeue, sealedFrom, submitReview, undoReview } from './review-service';

/** What the rest of the workbench does when review settles an item; wired where services are built. */
export interface ReviewHooks {
  /** An item was accepted or rejected (by consensus or adjudication): the feedback loop's turn. */
  readonly onDecided: (itemId: number) => void;
}

/** The live events review's writes send (`ReviewEvents` in the server; a recorder in tests). */
export type ReviewEventSink = Pick<ReviewEvents, 'claimed' | 'prefetched' | 'released' | 'decided' | 'goldReviewed' | 'goldUndone' | 'expired' | 'reviewed'>;

const settled = (status: ItemStatus) => status === 'accepted' || status === 'rejected';

/**
 * Review's writes with their after-effects: each stores through `review-service.ts` (one
 * transaction each) and then tells clients (`ReviewEvents`) and the hooks, so a route only
 * calls one method and never decides what follows a decision.
 */
export class ReviewCommands {
  constructor(
    private readonly db: Db,
    private readonly events: ReviewEventSink,
    private readonly hooks: ReviewHooks,
  ) {}

  /** The reviewer's next task (their own live lease first), or null when the queue has none for them. */
  next(reviewerId: number, filters: QueueFilters & { exclude_item_ids: number[] }): ReviewTask | null {
    // One claim in one transaction: assigned, queue, gold (by its share) and general items in order.
    const { task, claimed, prefetch, expired } = claimNext(this.db, reviewerId, filters);
    this.events.expired(expired);
    // A prefetched item is still shown as pending (prefetch-queries.ts): lists keep it until the
    // reviewer's decision on the item before it, whose event refreshes them.
    if (claimed !== null && prefetch) this.events.prefetched();
    else if (claimed !== null) this.events.claimed(claimed, reviewerId);
    // A gold item (claimed now, or a resumed lease on one) is shown like any item in review.
    return disguiseGoldTask(this.db, task);
  }

  /** The lease's new expiry. */
  renew(itemId: number, reviewerId: number): string {
    return renew(this.db, itemId, reviewerId);
  }

  release(itemId: number, reviewerId: number, token?: string): void {
    if (release(this.db, itemId, reviewerId, token)) this.events.released(itemId);
  }

  /**
   * Stores the review and tells clients: blind, the reviewers whose verdicts the item's outcome
   * rests on with others' are not told it (nor is the reviewer, in the response).
   */
  submit(itemId: number, reviewerId: number, review: SubmittedReview): SubmitReviewResponse {
    // One write transaction for both paths (each becomes a savepoint): taking SQLite's write lock
    // and committing cost system calls, and a submit used to do both twice.
    const outcome = immediateTransaction(this.db, () => {
      const gold = submitGoldReview(this.db, itemId, reviewerId, review);
      return gold ? { gold, result: null } : { gold: null, result: submitReview(this.db, itemId, reviewerId, review) };
    });
    // A gold item's review is compared with gold, not counted: its status did not change, no decision follows.
    const { gold, result } = outcome;
    // The reviewer's other tabs on this item stop offering it, gold or not (review.submitted); the
    // review's id (as the submit answers it) lets the tab that sent it know the push for its own.
    if (gold) {
      this.events.reviewed(itemId, reviewerId, gold.response.review_id);
      this.events.goldReviewed(itemId, reviewerId, gold.shown);
      return gold.response;
    }
    this.events.reviewed(itemId, reviewerId, result.response.review_id);
    this.events.decided(itemId, result.status, result.sealedFrom);
    if (settled(result.status)) this.hooks.onDecided(itemId);
    return result.response;
  }

  /** Takes the review back within its window; the item is the reviewer's task again. */
  undo(reviewId: number, reviewerId: number): ReviewTask {
    if (isGoldReviewId(this.db, reviewId)) {
      const gold = undoGoldReview(this.db, reviewId, reviewerId);
      this.events.goldUndone(gold.itemId, reviewerId);
      return gold.task;
    }
    const { task, itemId, status } = undoReview(this.db, reviewId, reviewerId);
    this.events.decided(itemId, status);
    this.events.claimed(itemId, reviewerId);
    return task;
  }

  adjudicate(itemId: number, curatorId: number, input: Adjudication): ItemStatus {
    const status = adjudicate(this.db, itemId, curatorId, input);
    this.events.decided(itemId, status, sealedFrom(this.db, itemId));
    this.hooks.onDecided(itemId);
    return status;
  }

  /** Retires the target's items (out of review); holders of their leases are told. How many were retired. */
  retire(target: BulkTarget, reason: string, curatorId: number): number {
    const { retired, releasedLeases } = retireItems(this.db, target, reason, curatorId);
    this.events.expired(releasedLeases);
    return retired.length;
  }

  /**
   * Tells clients what a change of the reviews per item did once it committed
   * (`settleForReviewsPerItem`, run in the settings write): the holders of ended leases why, open
   * pages the decided items (sealed as a submit's are), the feedback loop the settled ones.
   */
  reviewsPerItemSettled(settlement: ReviewsPerItemSettlement): void {
    this.events.expired(settlement.ended_leases);
    for (const item of settlement.decided) {
      this.events.decided(item.item_id, item.status, item.sealed_from);
      if (settled(item.status)) this.hooks.onDecided(item.item_id);
    }
  }

  /** How many items went back to the queue. */
  requeue(itemIds: number[], curatorId: number): number {
    const { requeued, releasedLeases } = requeue(this.db, itemIds, curatorId);
    this.events.expired(releasedLeases);
    for (const id of requeued) this.events.decided(id, 'pending');
    return requeued.length;
  }
}
