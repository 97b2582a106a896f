import type { Reflection } from '../../shared/api/reflection';
import type { Db } from '../../db/database';
import { blindItemIds, type BlindViewer } from '../items/blind-view-queries';
import { undecidedItemIds } from './reflection-queries';

/**
 * A proposal's reflections as a reviewer may read them. A reflection keeps the reviews it
 * answered; an item among them may have gone back to review since (an undo, a re-queue), and
 * while it is undecided its reviews are blind to other reviewers. Those entries are left out,
 * and so are those of items blind to this reviewer (decided with their verdict and others', gold
 * items: blind-view-queries.ts), and the reflection's `addressed` note, which may quote them.
 * Curators see it all.
 */
export function reflectionsForReviewer(db: Db, viewer: BlindViewer, reflections: readonly Reflection[]): Reflection[] {
  const itemIds = reflections.flatMap((r) => r.feedback.map((entry) => entry.item_id));
  const hidden = new Set([...undecidedItemIds(db, itemIds), ...blindItemIds(db, viewer, itemIds)]);
  if (hidden.size === 0) return [...reflections];
  return reflections.map((reflection) => {
    const feedback = reflection.feedback.filter((entry) => !hidden.has(entry.item_id));
    return feedback.length === reflection.feedback.length ? reflection : { ...reflection, feedback, addressed: null };
  });
}
