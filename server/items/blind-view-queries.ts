import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import { ItemStatusSchema, type ItemStatus } from '../../shared/domain/generation';
import { NOW_SQL, shownStatusSql } from './shown-status-queries';

/**
 * Items as a reviewer is shown them (blind review, issue 33). Curators and admins read items as
 * they are; a reviewer (a `BlindViewer`) never learns from an item page, a list, its feedback or
 * its thread what another reviewer's verdict was or an outcome that rests on one:
 *
 * - an item the viewer reviewed that was decided with another reviewer's review beside theirs
 *   (k ≥ 2, adjudicated) reads `in_review`, with no final answer, its other reviews left out;
 * - a gold item (migration 017) reads as any item does: to the reviewer it was served to, as
 *   their own review of it would have left a regular item (`in_review`, or at k = 1 their own
 *   decision and correction; `pending` while it is their prefetched next item); to any other
 *   reviewer who did not decide it, `in_review` — so no list of accepted items names it ahead.
 *
 * SQL over an item aliased by the caller, with the parameters `@viewer` (the reviewer's id) and
 * `@viewer_k` (reviews per item now), bound by `blindParams`.
 */
export interface BlindViewer {
  id: number;
  /** Reviews per item (settings): at k = 1 a reviewer's own review alone decides an item. */
  k: number;
}

export const blindParams = (viewer: BlindViewer) => ({ viewer: viewer.id, viewer_k: viewer.k });

const DECIDED = "('accepted', 'rejected', 'needs_adjudication')";

/** The viewer's review of the item stands. */
const mine = (item: string) => `EXISTS (SELECT 1 FROM reviews bm WHERE bm.item_id = ${item}.id AND bm.reviewer_id = @viewer AND bm.retracted_at IS NULL)`;

/** Decided with another reviewer's standing review beside the viewer's. */
const sealed = (item: string) => `(${item}.status IN ${DECIDED} AND ${mine(item)}
    AND EXISTS (SELECT 1 FROM reviews bo WHERE bo.item_id = ${item}.id AND bo.reviewer_id != @viewer AND bo.retracted_at IS NULL))`;

/** Served to the viewer as gold: they reviewed it as gold, or hold a lease on it (only a gold claim leases an accepted item). */
const served = (item: string) => `(${item}.status = 'accepted' AND (
    EXISTS (SELECT 1 FROM gold_reviews bgr WHERE bgr.item_id = ${item}.id AND bgr.reviewer_id = @viewer)
    OR EXISTS (SELECT 1 FROM leases bl WHERE bl.item_id = ${item}.id AND bl.reviewer_id = @viewer)))`;

/** A gold item the viewer did not decide themselves (as a regular review). */
const otherGold = (item: string) => `(${item}.status = 'accepted' AND EXISTS (SELECT 1 FROM gold_items bg WHERE bg.item_id = ${item}.id) AND NOT ${mine(item)})`;

/** The viewer's lease on the item is their prefetched next item: they hold an older live lease (prefetch-queries.ts). */
const prefetchedByViewer = (item: string) => `EXISTS (SELECT 1 FROM leases pm JOIN leases po ON po.reviewer_id = pm.reviewer_id AND po.item_id != pm.item_id
    AND po.expires_at > ${NOW_SQL} AND (po.created_at < pm.created_at OR (po.created_at = pm.created_at AND po.item_id < pm.item_id))
    WHERE pm.item_id = ${item}.id AND pm.reviewer_id = @viewer)`;

/** The viewer's gold review of the item, read as their regular review would leave the item. */
const goldReviewShown = (item: string, column: string) =>
  `(SELECT ${column} FROM gold_reviews gv WHERE gv.item_id = ${item}.id AND gv.reviewer_id = @viewer)`;

/** The item's status as the viewer is shown it (lists, filters, the Item page). */
export function blindStatusSql(item: string): string {
  return `(CASE
    WHEN ${served(item)} THEN COALESCE(
      ${goldReviewShown(item, "CASE WHEN @viewer_k > 1 THEN 'in_review' WHEN gv.decision = 'accept' THEN 'accepted' ELSE 'rejected' END")},
      CASE WHEN ${prefetchedByViewer(item)} THEN 'pending' ELSE 'in_review' END)
    WHEN ${otherGold(item)} OR ${sealed(item)} THEN 'in_review'
    ELSE ${shownStatusSql(item)} END)`;
}

/** The item's final answer as the viewer is shown it. */
function blindFinalAnswerSql(item: string): string {
  return `(CASE
    WHEN ${served(item)} THEN ${goldReviewShown(item, "CASE WHEN @viewer_k = 1 AND gv.decision = 'accept' THEN gv.corrected_answer END")}
    WHEN ${otherGold(item)} OR ${sealed(item)} THEN NULL
    ELSE ${item}.final_answer END)`;
}

/** Other people's reviews, feedback and reviewers' comments on the item are hidden from the viewer. */
function blindSql(item: string): string {
  return `(${served(item)} OR ${otherGold(item)} OR ${sealed(item)})`;
}

/** What the viewer is shown of each of these items that exists: its status and final answer. */
export function blindViews(db: Db, viewer: BlindViewer, itemIds: readonly number[]): Map<number, { status: ItemStatus; final_answer: string | null }> {
  if (itemIds.length === 0) return new Map();
  const rows = statement(db,
    `SELECT i.id, ${blindStatusSql('i')} AS status, ${blindFinalAnswerSql('i')} AS final_answer
       FROM hqa_items i WHERE i.id IN (SELECT value FROM json_each(@ids))`,
  ).all({ ids: JSON.stringify(itemIds), ...blindParams(viewer) }) as { id: number; status: string; final_answer: string | null }[];
  return new Map(rows.map((row) => [row.id, { status: ItemStatusSchema.parse(row.status), final_answer: row.final_answer }]));
}

/** Of these items, those whose other reviews (feedback, reflections quoting them, reviewers' comments) the viewer may not read. */
export function blindItemIds(db: Db, viewer: BlindViewer, itemIds: readonly number[]): Set<number> {
  if (itemIds.length === 0) return new Set();
  const rows = statement(db, `SELECT i.id FROM hqa_items i WHERE i.id IN (SELECT value FROM json_each(@ids)) AND ${blindSql('i')}`).all({
    ids: JSON.stringify([...new Set(itemIds)]),
    ...blindParams(viewer),
  }) as { id: number }[];
  return new Set(rows.map((row) => row.id));
}

/** SQL condition for feedback queries: the item aliased `item` is not blind to the viewer (binds `blindParams`). */
export function notBlindSql(item: string): string {
  return `NOT ${blindSql(item)}`;
}

/**
 * The item is blind to some reviewer (whoever reads it): a gold item, or one decided with more
 * than one reviewer's standing review. A reviewer's comment on it is then for curators as it is
 * posted (`comment.created`), as one on an undecided item is.
 */
export function blindToSomeReviewer(db: Db, itemId: number): boolean {
  return (
    statement(db,
      `SELECT 1 FROM hqa_items i WHERE i.id = ? AND i.status IN ${DECIDED} AND (
         EXISTS (SELECT 1 FROM gold_items g WHERE g.item_id = i.id)
         OR (SELECT COUNT(DISTINCT r.reviewer_id) FROM reviews r WHERE r.item_id = i.id AND r.retracted_at IS NULL) > 1)`,
    ).get(itemId) !== undefined
  );
}
