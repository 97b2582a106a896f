import type { Db } from '../../db/database';
import type { ItemStatus } from '../../shared/domain/generation';
import type { LeaseEndReason } from '../../shared/domain/review';
import type { DomainEventEmitter } from '../events/event-bus';
import { endLeaseWithReason, itemsInReview, nowIso } from './review-queries';
import { decide, sealedFrom } from './review-service';

/** What applying a k did, for the after-effects once it commits. */
export interface ReviewsPerItemSettlement {
  /** Items the standing reviews now decide, each with the reviewers its outcome is sealed from (blind review). */
  readonly decided: readonly { item_id: number; status: ItemStatus; sealed_from: number[] }[];
  /** Leases ended for their holders: on a decided item, or on a slot the new k no longer has. */
  readonly ended_leases: readonly { item_id: number; reviewer_id: number; reason: LeaseEndReason }[];
}

/**
 * Brings every item in review in line with the reviews per item now in force (`to`; `from`: the
 * k before). Runs inside the transaction that stores the setting, after it is stored, so the
 * change and its consequences commit together. For each item in review:
 * - its standing reviews reach k: it is decided by the rule a submit uses (`decide`), and every
 *   lease on it ends — its holders' next submit says the item was decided because k changed;
 * - its standing reviews and live leases exceed k: the newest leases end until they fit, so no
 *   more reviews are taken than k (the earliest claimants keep their slots, having worked longest).
 * Raising k changes nothing already decided (a decision stands: its reviewers may have been
 * told); items in review simply wait for more reviews. Idempotent: run again, it finds nothing.
 */
export function settleForReviewsPerItem(db: Db, events: DomainEventEmitter, change: { from: number; to: number; actorId: number | null }): ReviewsPerItemSettlement {
  const now = nowIso();
  const k = change.to;
  const decided: { item_id: number; status: ItemStatus; sealed_from: number[] }[] = [];
  const ended: { item_id: number; reviewer_id: number; reason: LeaseEndReason }[] = [];
  const ending = { k_from: change.from, k_to: change.to };
  for (const item of itemsInReview(db, now)) {
    if (item.standing >= k) {
      for (const reviewerId of item.holders) {
        endLeaseWithReason(db, item.id, reviewerId, { reason: 'decided_by_k_change', ...ending });
        ended.push({ item_id: item.id, reviewer_id: reviewerId, reason: 'decided_by_k_change' });
      }
      // Decided by whoever changed k: the answer history names them as the cause.
      const status = decide(db, item.id, now, change.actorId);
      decided.push({ item_id: item.id, status, sealed_from: sealedFrom(db, item.id) });
      events.emit('item.decided_by_reviews_per_item', {
        actor_id: change.actorId,
        item_id: item.id,
        k_from: change.from,
        k_to: change.to,
        standing_reviews: item.standing,
        item_status: status,
        leases_ended: item.holders.length,
      });
      continue;
    }
    const slots = k - item.standing;
    for (const reviewerId of item.holders.slice(slots)) {
      endLeaseWithReason(db, item.id, reviewerId, { reason: 'slot_removed_by_k_change', ...ending });
      ended.push({ item_id: item.id, reviewer_id: reviewerId, reason: 'slot_removed_by_k_change' });
    }
  }
  return { decided, ended_leases: ended };
}
