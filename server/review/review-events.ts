import type { ItemStatus } from '../../shared/domain/generation';
import type { LeaseEndReason } from '../../shared/domain/review';
import type { AppContext } from '../app-context';
import { nowIso } from './review-queries';
import { shownStatusCounts } from './shown-status-counts';

/** How often expired leases are returned to the queue (and their holders told). */
export const LEASE_SWEEP_MS = 2_000;
/** Per-status counts are a GROUP BY over all items: send them at most this often. */
const QUEUE_THROTTLE_MS = 1_000;
const PRESENCE_THROTTLE_MS = 250;

/**
 * The review domain's live events, in one place: claims, releases, decisions, expiries, counts.
 * Called by the subscribers of review's domain events (`server/events/subscribers.ts`), after the
 * write they announce committed.
 */
export class ReviewEvents {
  private queueTimer: NodeJS.Timeout | null = null;
  private presenceTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly broadcastPresence: () => void,
  ) {}

  /** Who is reviewing changes with every claim: tell clients at most every PRESENCE_THROTTLE_MS. */
  private presenceChanged(): void {
    if (this.presenceTimer) return;
    this.presenceTimer = setTimeout(() => {
      this.presenceTimer = null;
      this.broadcastPresence();
    }, PRESENCE_THROTTLE_MS);
    this.presenceTimer.unref();
  }

  claimed(itemId: number, reviewerId: number): void {
    this.ctx.publish('item.claimed', { item_id: itemId, reviewer_id: reviewerId });
    this.presenceChanged();
    this.queueChanged();
  }

  /** A reviewer fetched their next item ahead: nobody looks at it yet, so only the queue's counts moved. */
  prefetched(): void {
    this.queueChanged();
  }

  released(itemId: number): void {
    this.ctx.publish('item.released', { item_id: itemId });
    this.presenceChanged();
    this.queueChanged();
  }

  /**
   * The item's status now, to everyone but the reviewers in `sealedFrom` (blind review: those
   * whose verdicts it rests on with others'), who are told only that it is in review — all that
   * they are shown of it anywhere (items/blind-view-queries.ts). Curators and admins get it all.
   */
  decided(itemId: number, status: ItemStatus, sealedFrom: readonly number[] = []): void {
    this.ctx.publish('item.decided', { item_id: itemId, status }, { users: sealedFrom, payload: { item_id: itemId, status: 'in_review' } });
    this.presenceChanged();
    this.queueChanged();
  }

  /** The reviewer's review of the item was stored: their own tabs are told, nobody else (blind review). */
  reviewed(itemId: number, reviewerId: number, reviewId: number): void {
    this.ctx.publishTo(reviewerId, 'review.submitted', { item_id: itemId, review_id: reviewId });
  }

  /**
   * A gold item's review was stored (or taken back): its status did not change, so everyone is
   * told its lease ended — except its reviewer, who gets what a regular review would have told
   * them, the item's status as they are shown it.
   */
  goldReviewed(itemId: number, reviewerId: number, shown: ItemStatus): void {
    this.ctx.publish('item.released', { item_id: itemId }, { users: [reviewerId], payload: null });
    this.ctx.publishTo(reviewerId, 'item.decided', { item_id: itemId, status: shown });
    this.presenceChanged();
    this.queueChanged();
  }

  /** A gold review was taken back: the reviewer is told what a regular undo tells (in review again, claimed). */
  goldUndone(itemId: number, reviewerId: number): void {
    this.ctx.publishTo(reviewerId, 'item.decided', { item_id: itemId, status: 'in_review' });
    this.claimed(itemId, reviewerId);
  }

  /** Leases that ended without a review: their holders are told (with why, when the workbench ended them), lists see the item free. */
  expired(leases: readonly { item_id: number; reviewer_id: number; reason?: LeaseEndReason }[]): void {
    for (const lease of leases) {
      this.ctx.publishTo(lease.reviewer_id, 'lease.expired', lease.reason ? { item_id: lease.item_id, reason: lease.reason } : { item_id: lease.item_id });
      this.ctx.publish('item.released', { item_id: lease.item_id });
    }
    if (leases.length > 0) {
      this.presenceChanged();
      this.queueChanged();
    }
  }

  /** At shutdown: pending throttled broadcasts would otherwise query a closed database. */
  close(): void {
    if (this.queueTimer) clearTimeout(this.queueTimer);
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    this.queueTimer = null;
    this.presenceTimer = null;
  }

  queueChanged(): void {
    if (this.queueTimer) return;
    this.queueTimer = setTimeout(() => {
      this.queueTimer = null;
      try {
        this.ctx.publish('queue.changed', { counts: shownStatusCounts(this.ctx.db, nowIso()) });
      } catch (error) {
        // The database may be closing with the server.
        this.ctx.logger.debug({ err: error }, 'queue counts not sent');
      }
    }, QUEUE_THROTTLE_MS);
    this.queueTimer.unref();
  }
}
