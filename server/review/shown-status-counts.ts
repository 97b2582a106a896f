import type { Db } from '../../db/database';
import type { ItemStatus } from '../../shared/domain/generation';
import { countPrefetchOnlyItems } from './prefetch-queries';
import { statusCounts } from './review-queries';

/**
 * Items per status as people are shown them (the queue bar, `queue.changed`, the overview): an
 * item held only as a reviewer's prefetched next item is still waiting, so it counts as pending,
 * not as a second item that reviewer has "in review". The stored status stays `in_review` (the
 * slot is taken); only the figure shown moves.
 */
export function shownStatusCounts(db: Db, now: string): Record<ItemStatus, number> {
  const counts = statusCounts(db);
  const prefetched = Math.min(counts.in_review, countPrefetchOnlyItems(db, now));
  return { ...counts, in_review: counts.in_review - prefetched, pending: counts.pending + prefetched };
}
