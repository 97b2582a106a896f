import type { QueueFilters, ReviewTask, SubmitReviewRequest } from '@shared/api/review';
import type { Decision, LeaseEndReason } from '@shared/domain/review';
import { errorMessage, isApiError } from '../../api/http';
import type { ReviewApi } from './review-api';

/**
 * Why the item on screen can no longer take a review: its lease ran out (`expired`: claim it
 * again), it was decided elsewhere (`decided`: by this reviewer in another tab or window), or the
 * workbench ended the lease (a change of the reviews per item decided the item or took its slot).
 */
export type LostReason = 'expired' | 'decided' | LeaseEndReason;

/** Lost for good: there is no claiming the item again, only the next one. */
const isClosed = (lost: LostReason | null) => lost !== null && lost !== 'expired';

/** The item on screen: its task, when it was shown (for the time spent) and whether it was lost. */
export type ShownTask = { task: ReviewTask; shownAt: number; lost: LostReason | null };

/** The reviewer's latest stored decision, which they may take back until `undoUntil`. */
export type LastDecision = { reviewId: number; itemId: number; decision: Decision; undoUntil: number };

export type SessionState = {
  phase: 'loading' | 'ready' | 'empty' | 'error';
  current: ShownTask | null;
  /** Claimed in the background, shown the moment the current one is done. */
  next: ReviewTask | null;
  last: LastDecision | null;
  /** Something the reviewer must know: a review not stored, an undo refused. */
  notice: { kind: 'error' | 'info'; text: string } | null;
  /** A claim failed outright (phase 'error'). */
  error: string | null;
  /** An undo or a re-claim is on its way. */
  busy: boolean;
  /** Items skipped in this session, left out of its claims. */
  skippedCount: number;
};

/** The API takes at most ten exclusions per claim. */
const MAX_EXCLUDED = 10;
/**
 * Skipped items stay out of this session's claims. The items held (on screen, prefetched, their
 * reviews on the way) come first in a claim's exclusions: at most three, as the server holds at
 * most two leases per reviewer and the one on screen may have lost its own.
 */
const MAX_SKIPPED = MAX_EXCLUDED - 3;
/** Items whose reviews this session stored, remembered to ignore a stale task or event about them. */
const DECIDED_KEPT = 50;
/** How much of the feedback a "not stored" notice quotes back. */
const FEEDBACK_QUOTED = 160;

/** Renewing a lease at a third of what is left of it leaves two more chances before it runs out. */
const RENEW_FRACTION = 1 / 3;
const MIN_RENEW_MS = 5_000;
/**
 * The remaining time is read against this machine's clock, which may be off from the server's;
 * the cap keeps the shortest allowed lease (30 s) safe whatever the skew.
 */
const MAX_RENEW_MS = 10_000;

/**
 * The reviewer's side of the queue: the item on screen and the one claimed behind it, their
 * leases kept alive, submit / skip / undo. Network work that changes which items are held runs
 * one step at a time (a promise chain), so a prefetch, a filter change and an undo never race;
 * moving to the next item is synchronous, so the reviewer never waits on the network for it.
 */
export class ReviewSession {
  private state: SessionState = { phase: 'loading', current: null, next: null, last: null, notice: null, error: null, busy: false, skippedCount: 0 };
  private readonly listeners = new Set<() => void>();
  private chain: Promise<void> = Promise.resolve();
  private renewTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** Items the reviewer skipped, most recent last: not offered again until they ask. */
  private skipped: number[] = [];
  /**
   * Items whose review was sent (or is queued to be) and not yet answered. Their leases are still
   * the reviewer's until the server stores the review, so a claim made before then would hand
   * them back as "your own live lease": every claim excludes them, and a task for one is ignored.
   */
  private readonly inFlight = new Set<number>();
  /** Items whose review this session stored (most recent last), until an undo takes one back. */
  private decided: number[] = [];
  /** The ids of the reviews this session stored (most recent last): the pushes about them are its own. */
  private ownReviewIds: number[] = [];

  constructor(
    private readonly api: ReviewApi,
    private filters: QueueFilters,
    private readonly now: () => number = () => performance.now(),
  ) {}

  // --- store protocol (useSyncExternalStore) ---

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SessionState => this.state;

  private set(change: Partial<SessionState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }

  // --- lifecycle ---

  start(): void {
    this.disposed = false;
    this.schedule(() => this.fill());
    this.scheduleRenewal();
  }

  /** Stops renewing and gives back the prefetched item; the one on screen stays leased for a return. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.renewTimer);
    const next = this.state.next;
    if (next) {
      this.set({ next: null });
      void this.api.release(next).catch(() => undefined);
    }
  }

  /** Runs `step` after every step before it; a failing step does not stop the ones after it. */
  private schedule(step: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(step).catch((error: unknown) => {
      console.error('review session step failed', error);
    });
    return this.chain;
  }

  // --- showing items ---

  private show(task: ReviewTask): void {
    this.set({ current: { task, shownAt: this.now(), lost: null }, phase: 'ready', error: null });
  }

  /**
   * The prefetched item becomes the current one at once, or the page waits for a claim. The
   * claim behind it waits for `settle` (the submit or release of the item just left): the
   * server holds at most two leases per reviewer, and that item's lease counts until then.
   */
  private advance(settle: () => Promise<void>): void {
    const next = this.state.next;
    if (next) {
      this.set({ next: null });
      this.show(next);
    } else {
      this.set({ current: null, phase: 'loading' });
    }
    void this.schedule(async () => {
      await settle();
      await this.fill();
    });
  }

  /**
   * What a claim must not hand out: `held` (the items on screen and prefetched), the items whose
   * reviews are on their way, then the skipped ones, most recent first, within the API's limit.
   */
  private exclusions(...held: (number | undefined)[]): number[] {
    const ids = [...held.filter((id) => id !== undefined), ...this.inFlight, ...[...this.skipped].reverse()];
    return [...new Set(ids)].slice(0, MAX_EXCLUDED);
  }

  /** A task for an item this session has decided or is deciding: its lease is the review's, not a new claim. */
  private isDone(task: ReviewTask): boolean {
    return this.inFlight.has(task.item.id) || this.decided.includes(task.item.id);
  }

  /** Makes sure an item is shown and one more is claimed behind it. Safe to call any time. */
  private async fill(): Promise<void> {
    if (this.disposed) return;
    if (!this.state.current) {
      if (this.state.next) {
        const next = this.state.next;
        this.set({ next: null });
        this.show(next);
      } else {
        let task: ReviewTask | null;
        try {
          task = await this.api.next(this.filters, this.exclusions());
        } catch (error) {
          this.set({ phase: 'error', error: errorMessage(error) });
          return;
        }
        if (this.disposed) return this.giveBack(task);
        if (task && this.isDone(task)) return;
        if (!task) {
          // With reviews still on their way the server may be holding their leases: the step
          // after each of them claims again, so the queue is not empty yet.
          if (this.inFlight.size === 0) this.set({ phase: 'empty' });
          return;
        }
        this.show(task);
      }
    }
    const current = this.state.current;
    if (!current || this.state.next) return;
    // A failed prefetch is not the reviewer's problem: the next advance claims again.
    const task = await this.api.next(this.filters, this.exclusions(current.task.item.id)).catch(() => null);
    if (this.disposed) return this.giveBack(task);
    if (!task || task.item.id === this.state.current?.task.item.id || this.isDone(task)) return;
    if (this.state.next) return this.giveBack(task);
    this.set({ next: task });
  }

  /**
   * Releases a task's lease. Never one of an item this session still needs: the one on screen,
   * the prefetched one, one whose review is on its way (a claim that handed back such a lease
   * handed back the same lease, and releasing it would lose the item or its review).
   */
  private giveBack(task: ReviewTask | null): void {
    if (!task) return;
    const id = task.item.id;
    if (this.isDone(task) || this.state.current?.task.item.id === id || this.state.next?.item.id === id) return;
    void this.api.release(task).catch(() => undefined);
  }

  /** The queue changed (or the filters did): try again to have an item and one behind it. */
  refill(): void {
    if (this.state.next && this.state.current) return;
    void this.schedule(() => this.fill());
  }

  setFilters(filters: QueueFilters): void {
    this.filters = filters;
    void this.schedule(async () => {
      // The prefetched item was chosen under the old filters.
      const next = this.state.next;
      if (next) {
        this.set({ next: null });
        void this.api.release(next).catch(() => undefined);
      }
      if (this.state.phase === 'empty') this.set({ phase: 'loading' });
      await this.fill();
    });
  }

  // --- the reviewer's actions ---

  /**
   * Shows the next item at once and sends the review of `itemId` behind it. `onStored` runs once
   * the server has it; a review the server refused brings its item back (unless the item is
   * gone). A review of an item no longer on screen (a key pressed twice before the page caught
   * up) is dropped: it was written for that item, not the one shown now.
   */
  submit(itemId: number, body: SubmitReviewRequest, onStored: (itemId: number) => void): void {
    const shown = this.state.current;
    if (!shown || shown.task.item.id !== itemId) return;
    // The server stores a review only under a live lease, and only once.
    if (shown.lost) {
      this.explainLost();
      return;
    }
    this.set({ notice: null });
    this.inFlight.add(itemId);
    this.advance(async () => {
      try {
        const result = await this.api.submit(itemId, body);
        this.decided = [...this.decided.filter((id) => id !== itemId), itemId].slice(-DECIDED_KEPT);
        this.ownReviewIds = [...this.ownReviewIds, result.review_id].slice(-DECIDED_KEPT);
        onStored(itemId);
        // No undo for a review that decided the item together with others (undo_until null): the toast stays away.
        this.set({ last: { reviewId: result.review_id, itemId, decision: body.decision, undoUntil: result.undo_until === null ? 0 : Date.parse(result.undo_until) } });
      } catch (error) {
        const gone = isApiError(error) && (error.status === 409 || error.status === 404);
        if (gone) {
          this.set({ notice: { kind: 'error', text: `Your review of item #${itemId} was not stored: ${errorMessage(error)}. ${keptDraft(body.feedback)}` } });
          return;
        }
        this.bringBack({ ...shown, lost: null });
        this.set({ notice: { kind: 'error', text: `Your review of item #${itemId} was not stored (${errorMessage(error)}). It is back on screen with your draft.` } });
      } finally {
        this.inFlight.delete(itemId);
      }
    });
  }

  /** Why a decision on the item on screen cannot be sent, and the key that gets the reviewer going again. */
  explainLost(): void {
    const shown = this.state.current;
    if (!shown?.lost) return;
    const id = shown.task.item.id;
    const text = lostText(id, shown.lost);
    this.set({ notice: { kind: 'error', text } });
  }

  /** Gives the item back to the queue and shows the next one; an item decided elsewhere is simply left. */
  skip(): void {
    const shown = this.state.current;
    if (!shown) return;
    const itemId = shown.task.item.id;
    if (isClosed(shown.lost)) {
      this.set({ notice: null });
      this.advance(() => Promise.resolve());
      return;
    }
    this.skipped = [...this.skipped.filter((id) => id !== itemId), itemId].slice(-MAX_SKIPPED);
    this.set({ notice: null, skippedCount: this.skipped.length });
    this.advance(() => this.api.release(shown.task).catch(() => undefined));
  }

  /** Offers the skipped items again (when nothing else is left). */
  unskip(): void {
    this.skipped = [];
    this.set({ skippedCount: 0 });
    this.refill();
  }

  /** Takes the last decision back: its item returns to the screen, the one shown waits behind it. */
  undo(onUndone: (itemId: number) => void): void {
    const last = this.state.last;
    if (!last || this.state.busy) return;
    this.set({ busy: true, notice: null });
    void this.schedule(async () => {
      try {
        const task = await this.api.undo(last.reviewId);
        this.decided = this.decided.filter((id) => id !== task.item.id);
        this.set({ last: null });
        onUndone(task.item.id);
        this.bringBack({ task, shownAt: this.now(), lost: null });
      } catch (error) {
        this.set({ last: null, notice: { kind: 'error', text: `Could not undo: ${errorMessage(error)}` } });
      } finally {
        this.set({ busy: false });
      }
    });
  }

  /** The item on screen moves behind `shown`; a prefetched item beyond that is given back. */
  private bringBack(shown: ShownTask): void {
    const { current, next } = this.state;
    // A lost item on screen does not wait behind: there is nothing to come back to.
    const behind = current && !current.lost && current.task.item.id !== shown.task.item.id ? current.task : null;
    this.set({ current: shown, next: behind, phase: 'ready', error: null });
    if (next && next.item.id !== shown.task.item.id && next.item.id !== behind?.item.id) this.giveBack(next);
  }

  dismissNotice(): void {
    this.set({ notice: null });
  }

  dismissLast(): void {
    this.set({ last: null });
  }

  /** After the lease of the shown item ran out: claim again (the same item, if it is still free). */
  claimAgain(): void {
    const shown = this.state.current;
    if (!shown || shown.lost !== 'expired' || this.state.busy) return;
    this.set({ busy: true, notice: null });
    void this.schedule(async () => {
      try {
        const task = await this.api.next(this.filters, this.exclusions(this.state.next?.item.id));
        if (!task || this.isDone(task)) {
          this.set({ notice: { kind: 'info', text: 'Nothing to claim: the queue is empty for you.' } });
        } else if (task.item.id === this.state.current?.task.item.id) {
          // Same item: the time spent so far still counts.
          this.set({ current: { task, shownAt: shown.shownAt, lost: null } });
        } else {
          this.set({
            notice: { kind: 'info', text: `Item #${shown.task.item.id} went to another reviewer; here is the next one. Your draft of it is kept.` },
          });
          this.show(task);
        }
      } catch (error) {
        this.set({ notice: { kind: 'error', text: `Could not claim: ${errorMessage(error)}` } });
      } finally {
        this.set({ busy: false });
      }
    });
  }

  // --- leases ---

  /** The server says a lease of ours ran out (pushed, or a renewal refused), or that it ended the lease (`reason`). */
  leaseExpired(itemId: number, reason?: LeaseEndReason): void {
    this.lose(itemId, reason ?? 'expired');
  }

  /**
   * The server stored review `reviewId` of this reviewer's, of `itemId` (pushed to all their
   * tabs). From another tab, the item is done here too: the one on screen says so and keeps what
   * was typed, a prefetched one is dropped. This session's own reviews are not news, whenever
   * the push comes: before the submit's answer (the item is still in flight), or after an undo
   * has brought the item back (the review id is known as this session's).
   */
  reviewedElsewhere(itemId: number, reviewId: number): void {
    if (this.inFlight.has(itemId) || this.ownReviewIds.includes(reviewId)) return;
    this.lose(itemId, 'decided');
  }

  private lose(itemId: number, reason: LostReason): void {
    const { current, next } = this.state;
    // An item decided elsewhere (or closed by the workbench) stays so, whatever its lease does after.
    if (current?.task.item.id === itemId && !isClosed(current.lost) && current.lost !== reason) this.set({ current: { ...current, lost: reason } });
    if (next?.item.id === itemId) {
      this.set({ next: null });
      this.refill();
    }
  }

  private renewInterval(): number {
    const expiresAt = this.state.current?.task.lease_expires_at ?? this.state.next?.lease_expires_at;
    const remaining = expiresAt ? Date.parse(expiresAt) - Date.now() : MAX_RENEW_MS;
    return Math.min(MAX_RENEW_MS, Math.max(MIN_RENEW_MS, remaining * RENEW_FRACTION));
  }

  private scheduleRenewal(): void {
    clearTimeout(this.renewTimer);
    if (this.disposed) return;
    this.renewTimer = setTimeout(() => {
      void this.renewAll().finally(() => this.scheduleRenewal());
    }, this.renewInterval());
  }

  private async renewAll(): Promise<void> {
    const held = [this.state.current && !this.state.current.lost ? this.state.current.task : null, this.state.next];
    await Promise.all(
      held.map(async (task) => {
        if (!task) return;
        const itemId = task.item.id;
        try {
          const leaseExpiresAt = await this.api.renew(itemId);
          const { current, next } = this.state;
          if (current?.task.item.id === itemId) this.set({ current: { ...current, task: { ...current.task, lease_expires_at: leaseExpiresAt } } });
          else if (next?.item.id === itemId) this.set({ next: { ...next, lease_expires_at: leaseExpiresAt } });
        } catch (error) {
          if (isApiError(error) && error.status === 409) this.leaseExpired(itemId);
        }
      }),
    );
  }
}

/** Why a decision on item `id` cannot be sent, and the key that gets the reviewer going again. */
function lostText(id: number, lost: LostReason): string {
  if (lost === 'expired') return `Your lease on item #${id} ran out, so a review of it cannot be stored. Press l to claim it again (your draft is kept), or s for the next item.`;
  if (lost === 'decided') {
    return `Item #${id} was decided elsewhere (your review of it in another tab or window), so a review of it cannot be stored here. What you wrote stays as its draft; press s for the next item.`;
  }
  return `${LEASE_END_TEXT[lost]} A review of it cannot be stored; press s for the next item.`;
}

/** What the workbench's ending of a lease means to its holder (the server's `lease_ended` refusal says the same, with k). */
export const LEASE_END_TEXT: Record<LeaseEndReason, string> = {
  decided_by_k_change: 'This item was decided without your review: the reviews per item (k) was lowered, and the reviews already standing now decide it.',
  slot_removed_by_k_change: 'Your lease on this item ended: the reviews per item (k) was lowered, and its remaining slots went to reviewers who claimed it before you.',
};

/** What a "not stored" notice says of the reviewer's text: it is kept, and quoted so it can be copied. */
function keptDraft(feedback: string | undefined): string {
  const text = feedback?.trim() ?? '';
  if (text === '') return 'Your draft of it is kept.';
  const quoted = text.length > FEEDBACK_QUOTED ? `${text.slice(0, FEEDBACK_QUOTED)}…` : text;
  return `Your draft of it is kept; your feedback was: “${quoted}”`;
}
