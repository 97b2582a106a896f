import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import type { QueueFilters, ReviewTask } from '@shared/api/review';
import { useCurrentUser } from '../../auth/session';
import { QueueCounts, QueueFilterBar } from './queue-bar';
import { readQueueFilters, writeQueueFilters } from './queue-filters';
import { GuidelinesPanel } from './guidelines-panel';
import { prefetchItem } from './prefetch-item';
import { reviewApi, useExpiredLeases, useOwnReviews, useQueue } from './review-api';
import { clearDraft, pruneDrafts, saveDraft, type ReviewDraft } from './review-draft';
import { useKeyHandler } from './review-keys';
import { ReviewSession } from './review-session';
import { ReviewWorkspace } from './review-workspace';
import { ShortcutOverlay } from './shortcut-overlay';
import { UndoToast } from './undo-toast';

/** Feeds the server's lease-expiry pushes to the session, each once, ignoring ones from before the page opened. */
function useLeaseExpiries(session: ReviewSession): void {
  const expired = useExpiredLeases();
  const seenUntil = useRef<number | null>(null);
  useEffect(() => {
    const latest = Math.max(0, ...expired.map((lease) => lease.at));
    if (seenUntil.current === null) {
      seenUntil.current = latest;
      return;
    }
    const since = seenUntil.current;
    for (const lease of expired) if (lease.at > since) session.leaseExpired(lease.item_id, lease.reason);
    seenUntil.current = Math.max(since, latest);
  }, [expired, session]);
}

/** Feeds the reviews this user stored from any tab (pushed) to the session, each once, ignoring ones from before the page opened. */
function useOwnReviewsElsewhere(session: ReviewSession): void {
  const reviews = useOwnReviews();
  const seenUntil = useRef<number | null>(null);
  useEffect(() => {
    const latest = Math.max(0, ...reviews.map((review) => review.seq));
    if (seenUntil.current === null) {
      seenUntil.current = latest;
      return;
    }
    const since = seenUntil.current;
    for (const review of reviews) if (review.seq > since) session.reviewedElsewhere(review.item_id, review.review_id);
    seenUntil.current = Math.max(since, latest);
  }, [reviews, session]);
}

/**
 * Makes the item claimed behind the one on screen ready to show (images loaded, charts drawn);
 * the id of the item last made ready, for the page to say so.
 */
function usePreparedNext(next: ReviewTask | null): number | null {
  const [ready, setReady] = useState<number | null>(null);
  useEffect(() => {
    if (!next) return;
    let live = true;
    void prefetchItem(next).then(() => {
      if (live) setReady(next.item.id);
    });
    return () => {
      live = false;
    };
  }, [next]);
  return next && ready === next.item.id ? ready : null;
}

/**
 * The reviewer's screen: one item at a time from the queue, the next one already claimed, every
 * action on a key. Decisions go to the server behind the next item, so nobody waits on them.
 */
export function ReviewPage() {
  const user = useCurrentUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = readQueueFilters(searchParams);
  const filterKey = searchParams.toString();
  const [session] = useState(() => new ReviewSession(reviewApi, filters));
  const state = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const [overlay, setOverlay] = useState(false);
  const [guidelines, setGuidelines] = useState(false);
  // What each submitted review said, to put back in the form if it is undone.
  const submitted = useRef(new Map<number, ReviewDraft>());

  useEffect(() => {
    pruneDrafts();
    session.start();
    return () => session.dispose();
  }, [session]);

  const appliedFilters = useRef(filterKey);
  useEffect(() => {
    if (appliedFilters.current === filterKey) return;
    appliedFilters.current = filterKey;
    session.setFilters(readQueueFilters(new URLSearchParams(filterKey)));
  }, [filterKey, session]);

  useLeaseExpiries(session);
  useOwnReviewsElsewhere(session);
  const preparedNext = usePreparedNext(state.next);

  // New items, or a slot freed: try again for an item (and one behind it).
  const available = useQueue().data?.available ?? 0;
  useEffect(() => {
    if (available > 0) session.refill();
  }, [available, session]);

  const undo = () => {
    const last = session.getSnapshot().last;
    if (!last || last.undoUntil <= Date.now()) return;
    session.undo((itemId) => {
      const draft = submitted.current.get(itemId);
      if (draft) saveDraft(user.id, itemId, draft);
    });
  };

  useKeyHandler((key, { typing }) => {
    if (overlay) {
      if (key === 'Escape' || key === '?') setOverlay(false);
      return key === 'Escape' || key === '?';
    }
    if (typing) return false;
    if (key === '?') {
      setOverlay(true);
      return true;
    }
    if (key === 'g') {
      setGuidelines((open) => !open);
      return true;
    }
    if (key === 'u') {
      undo();
      return true;
    }
    return false;
  });

  const setFilters = (next: QueueFilters) => setSearchParams(writeQueueFilters(next), { replace: true });
  const { current, phase, last, notice } = state;

  return (
    <section className="page review-page">
      <title>Review · Chart-HQA</title>
      <header className="review-header">
        <h1>Review</h1>
        <QueueCounts />
        <QueueFilterBar filters={filters} onChange={setFilters} />
        <span className="review-header-buttons">
          <button type="button" className="keys-button" aria-expanded={guidelines} aria-controls="review-guidelines" onClick={() => setGuidelines((open) => !open)}>
            Guidelines <kbd>g</kbd>
          </button>
          <button type="button" className="keys-button" onClick={() => setOverlay(true)}>
            Keys <kbd>?</kbd>
          </button>
        </span>
      </header>

      {guidelines && <GuidelinesPanel onClose={() => setGuidelines(false)} />}

      {notice && (
        <div className={notice.kind === 'error' ? 'error review-notice' : 'notice review-notice'} role="alert" data-testid="review-notice">
          {notice.text}{' '}
          <button type="button" className="link-button" onClick={() => session.dismissNotice()}>
            Dismiss
          </button>
        </div>
      )}

      {current ? (
        <ReviewWorkspace
          key={current.task.item.id}
          shown={current}
          userId={user.id}
          keysActive={!overlay}
          busy={state.busy}
          onSubmit={(body, draft) => {
            const itemId = current.task.item.id;
            submitted.current.set(itemId, draft);
            // Cleared only while it is still what was sent: another tab on the item keeps its own.
            session.submit(itemId, body, (storedId) => clearDraft(user.id, storedId, draft));
            // Only the latest decision can be undone.
            for (const id of submitted.current.keys()) if (id !== itemId) submitted.current.delete(id);
          }}
          onSkip={() => session.skip()}
          onClaimAgain={() => session.claimAgain()}
          onLostDecision={() => session.explainLost()}
        />
      ) : phase === 'empty' ? (
        <div className="review-empty" data-testid="review-empty">
          <p className="empty">Nothing to review{filterKey ? ' with these filters' : ''}: the queue is empty for you. New items appear here as they arrive.</p>
          {state.skippedCount > 0 && (
            <button type="button" onClick={() => session.unskip()}>
              Show the {state.skippedCount} skipped {state.skippedCount === 1 ? 'item' : 'items'} again
            </button>
          )}
        </div>
      ) : phase === 'error' ? (
        <p className="error" role="alert">
          Could not get an item: {state.error}{' '}
          <button type="button" onClick={() => session.refill()}>
            Try again
          </button>
        </p>
      ) : (
        <p className="muted">Claiming the next item…</p>
      )}

      {preparedNext !== null && <span hidden data-testid="review-next-ready" data-item-id={preparedNext} />}
      {last && <UndoToast last={last} busy={state.busy} onUndo={undo} onDismiss={() => session.dismissLast()} />}
      {overlay && <ShortcutOverlay onClose={() => setOverlay(false)} />}
    </section>
  );
}
