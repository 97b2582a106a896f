import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import { prefetchOnlySql } from '../items/shown-status-queries';

/**
 * A reviewer holds up to two leases: the item on screen (their oldest live lease: the claim hands
 * it back first) and the next one, prefetched so it is ready the moment they submit. The
 * prefetched item's status is `in_review` (its slot is taken), but nobody is looking at it yet.
 *
 * This counts the `in_review` items that nobody is looking at: no standing review, and every live
 * lease on them is a prefetch (its holder has an older live lease). Leases are few (at most two
 * per reviewer), so the count walks the live leases, not the items (CROSS JOIN keeps SQLite's
 * planner from starting at the items in review, of which there may be many more).
 */
export function countPrefetchOnlyItems(db: Db, now: string): number {
  return (
    statement(
      db,
      `SELECT COUNT(DISTINCT l.item_id) AS n FROM leases l CROSS JOIN hqa_items i ON i.id = l.item_id
        WHERE l.expires_at > @now AND ${prefetchOnlySql('i', '@now')}`,
    ).get({ now }) as { n: number }
  ).n;
}
