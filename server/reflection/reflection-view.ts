import type { Reflection } from '../../shared/api/reflection';
import type { Db } from '../../db/database';
import { undecidedItemIds } from './reflection-queries';

/**
 * A proposal's reflections as a reviewer may read them. A reflection keeps the reviews it
 * answered; an item among them may have gone back to review since (an undo, a re-queue), and
 * while it is undecided its reviews are blind to other reviewers. Those entries are left out,
 * and so is the reflection's `addressed` note, which may quote them. Curators see it all.
 */
export function reflectionsForReviewer(db: Db, reflections: readonly Reflection[]): Reflection[] {
  const undecided = undecidedItemIds(
    db,
    reflections.flatMap((r) => r.feedback.map((entry) => entry.item_id)),
  );
  if (undecided.size === 0) return [...reflections];
  return reflections.map((reflection) => {
    const feedback = reflection.feedback.filter((entry) => !undecided.has(entry.item_id));
    return feedback.length === reflection.feedback.length ? reflection : { ...reflection, feedback, addressed: null };
  });
}
