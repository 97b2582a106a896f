/**
 * An item's status as people are shown it. A reviewer holds up to two leases: the item on screen
 * and the next one, prefetched so it is ready the moment they submit (server/review). The
 * prefetched item's status is `in_review` (its slot is taken), but nobody is looking at it yet, so
 * lists and the Item page show it as still waiting. These fragments are read by item lists and by
 * review's counts alike.
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
