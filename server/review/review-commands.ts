import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import type { Adjudication, QueueFilters, ReviewTask, SubmittedReview, SubmitReviewResponse } from '../../shared/api/review';
import type { ItemStatus } from '../../shared/domain/generation';
import type { BulkTarget } from '../../shared/api/assignment';
import type { EndedLease } from '../events/domain-events';
import type { DomainEventEmitter } from '../events/event-bus';
import { settleForReviewsPerItem, type ReviewsPerItemSettlement } from './reviews-per-item';
import { retireItems } from './assignment-service';
import { disguiseGoldTask, isGoldReviewId, submitGoldReview, undoGoldReview } from './gold-service';
import { adjudicate, claimNext, release, renew, requeue, sealedFrom, submitReview, sweepExpiredLeases, undoReview } from './review-service';

/**
 * Review's writes, each saying what it did as domain events inside its transaction
 * (`server/events/`): clients are told, the audit log and the feedback loop take it from there
 * through the subscribers registered at start-up, so a route only calls one method and review
 * never decides, nor imports, what follows a decision.
 */
export class ReviewCommands {
  constructor(
    private readonly db: Db,
    private readonly events: DomainEventEmitter,
  ) {}

  /** The reviewer's next task (their own live lease first), or null when the queue has none for them. */
  next(reviewerId: number, filters: QueueFilters & { exclude_item_ids: number[] }): ReviewTask | null {
    // One claim in one transaction: assigned, queue, gold (by its share) and general items in order.
    const { task } = immediateTransaction(this.db, () => {
      const claim = claimNext(this.db, reviewerId, filters);
      this.leasesEnded(claim.expired);
      // A prefetched item is still shown as pending (items/shown-status-queries.ts): lists keep it until the
      // reviewer's decision on the item before it, whose event refreshes them.
      if (claim.claimed !== null) this.events.emit(claim.prefetch ? 'item.prefetched' : 'item.claimed', { item_id: claim.claimed, reviewer_id: reviewerId });
      return claim;
    });
    // A gold item (claimed now, or a resumed lease on one) is shown like any item in review.
    return disguiseGoldTask(this.db, task);
  }

  /** The lease's new expiry. */
  renew(itemId: number, reviewerId: number): string {
    return renew(this.db, itemId, reviewerId);
  }

  release(itemId: number, reviewerId: number, token?: string): void {
    immediateTransaction(this.db, () => {
      if (release(this.db, itemId, reviewerId, token)) this.events.emit('lease.released', { item_id: itemId });
    });
  }

  /**
   * Stores the review and tells clients: blind, the reviewers whose verdicts the item's outcome
   * rests on with others' are not told it (nor is the reviewer, in the response).
   */
  submit(itemId: number, reviewerId: number, review: SubmittedReview): SubmitReviewResponse {
    // One write transaction for both paths (each becomes a savepoint): taking SQLite's write lock
    // and committing cost system calls, and a submit used to do both twice.
    return immediateTransaction(this.db, () => {
      // A gold item's review is compared with gold, not counted: its status did not change, no decision follows.
      const gold = submitGoldReview(this.db, itemId, reviewerId, review);
      // The reviewer's other tabs on this item stop offering it, gold or not (item.reviewed); the
      // review's id (as the submit answers it) lets the tab that sent it know the push for its own.
      if (gold) {
        this.events.emit('item.reviewed', { item_id: itemId, reviewer_id: reviewerId, review_id: gold.response.review_id, decision: review.decision, item_status: null });
        this.events.emit('gold.reviewed', { item_id: itemId, reviewer_id: reviewerId, shown: gold.shown });
        return gold.response;
      }
      const result = submitReview(this.db, itemId, reviewerId, review);
      this.events.emit('item.reviewed', { item_id: itemId, reviewer_id: reviewerId, review_id: result.response.review_id, decision: review.decision, item_status: result.status });
      this.events.emit('item.decided', { item_id: itemId, status: result.status, sealed_from: result.sealedFrom });
      return result.response;
    });
  }

  /** Takes the review back within its window; the item is the reviewer's task again. */
  undo(reviewId: number, reviewerId: number): ReviewTask {
    return immediateTransaction(this.db, () => {
      if (isGoldReviewId(this.db, reviewId)) {
        const gold = undoGoldReview(this.db, reviewId, reviewerId);
        this.events.emit('gold.undone', { item_id: gold.itemId, reviewer_id: reviewerId });
        return gold.task;
      }
      const { task, itemId, status, from } = undoReview(this.db, reviewId, reviewerId);
      this.events.emit('review.undone', { item_id: itemId, reviewer_id: reviewerId, review_id: reviewId, from });
      this.events.emit('item.decided', { item_id: itemId, status, sealed_from: [] });
      this.events.emit('item.claimed', { item_id: itemId, reviewer_id: reviewerId });
      return task;
    });
  }

  adjudicate(itemId: number, curatorId: number, input: Adjudication): ItemStatus {
    return immediateTransaction(this.db, () => {
      const { status, from } = adjudicate(this.db, itemId, curatorId, input);
      this.events.emit('item.adjudicated', { item_id: itemId, curator_id: curatorId, decision: input.decision, from });
      this.events.emit('item.decided', { item_id: itemId, status, sealed_from: sealedFrom(this.db, itemId) });
      return status;
    });
  }

  /** Retires the target's items (out of review); holders of their leases are told. How many were retired. */
  retire(target: BulkTarget, reason: string, curatorId: number): number {
    return immediateTransaction(this.db, () => {
      const { retired, releasedLeases } = retireItems(this.db, this.events, target, reason, curatorId);
      this.leasesEnded(releasedLeases);
      if (retired.length > 0) this.events.emit('assignment.changed', { items: retired.length });
      return retired.length;
    });
  }

  /**
   * A change of the reviews per item, run inside the settings write that stores it
   * (`settleForReviewsPerItem`): the holders of ended leases are told why, open pages the decided
   * items (sealed as a submit's are), the feedback loop the settled ones — once it commits.
   */
  settleReviewsPerItem(change: { from: number; to: number; actorId: number | null }): ReviewsPerItemSettlement {
    const settlement = settleForReviewsPerItem(this.db, this.events, change);
    this.leasesEnded(settlement.ended_leases);
    for (const item of settlement.decided) this.events.emit('item.decided', { item_id: item.item_id, status: item.status, sealed_from: item.sealed_from });
    return settlement;
  }

  /** How many items went back to the queue. */
  requeue(itemIds: number[], curatorId: number): number {
    return immediateTransaction(this.db, () => {
      const { requeued, releasedLeases } = requeue(this.db, itemIds, curatorId);
      this.leasesEnded(releasedLeases);
      for (const id of requeued) this.events.emit('item.decided', { item_id: id, status: 'pending', sealed_from: [] });
      return requeued.length;
    });
  }

  /** Returns expired leases to the queue (run every LEASE_SWEEP_MS); their holders are told. */
  sweepExpired(): void {
    immediateTransaction(this.db, () => this.leasesEnded(sweepExpiredLeases(this.db)));
  }

  private leasesEnded(leases: readonly EndedLease[]): void {
    if (leases.length > 0) this.events.emit('leases.ended', { leases });
  }
}
