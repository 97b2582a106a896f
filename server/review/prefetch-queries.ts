import type { Db } from '../../db/database';
import { statement } from '../../db/statements';

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
/** Now as the leases store it (ISO 8601, milliseconds, UTC), computed by SQLite: for SQL shared by pages that pass no time. */
export const NOW_SQL = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/**
 * The item `item` (an alias of hqa_items) is held only as someone's prefetched next item: it is
 * `in_review`, has no standing review, at least one live lease, and every live lease on it is
 * a prefetch. `now` is an SQL expression (a parameter, or NOW_SQL).
 */
export function prefetchOnlySql(item: string, now: string): string {
  return `(${item}.status = 'in_review'
    AND EXISTS (SELECT 1 FROM leases pl WHERE pl.item_id = ${item}.id AND pl.expires_at > ${now})
    AND NOT EXISTS (SELECT 1 FROM reviews pr WHERE pr.item_id = ${item}.id AND pr.retracted_at IS NULL)
    AND NOT EXISTS (
      SELECT 1 FROM leases pc WHERE pc.item_id = ${item}.id AND pc.expires_at > ${now}
        AND NOT EXISTS (
          SELECT 1 FROM leases po WHERE po.reviewer_id = pc.reviewer_id AND po.expires_at > ${now}
            AND (po.created_at < pc.created_at OR (po.created_at = pc.created_at AND po.item_id < pc.item_id)))))`;
}

/**
 * An item's status as people are shown it (lists, the Item page): a prefetch-only item is still
 * waiting, so `pending`; every other status as stored.
 */
export function shownStatusSql(item: string): string {
  return `CASE WHEN ${prefetchOnlySql(item, NOW_SQL)} THEN 'pending' ELSE ${item}.status END`;
}

export function countPrefetchOnlyItems(db: Db, now: string): number {
  return (
    statement(
      db,
      `SELECT COUNT(DISTINCT l.item_id) AS n FROM leases l CROSS JOIN hqa_items i ON i.id = l.item_id
        WHERE l.expires_at > @now AND ${prefetchOnlySql('i', '@now')}`,
    ).get({ now }) as { n: number }
  ).n;
}
