import type { Db } from '../../db/database';
import { questionRelation } from '../language/question-relation';
import { itemQuestionTexts, setQuestionRelations, unclassifiedItems } from './item-queries';

/** Items classified per transaction: a large legacy database is done in steps, never in one long lock. */
const BATCH = 500;

/**
 * Items stored before the question relation existed get it now, from their factual query,
 * question and assumption, exactly as new items do. Returns how many were classified.
 */
export function classifyLegacyItems(db: Db): number {
  let done = 0;
  for (;;) {
    const batch = unclassifiedItems(db, BATCH);
    if (batch.length === 0) return done;
    db.transaction(() => setQuestionRelations(db, batch.map((item) => ({ id: item.id, relation: questionRelation(item.factual_query, item.question, item.assumption) }))))();
    done += batch.length;
  }
}

/** Classifies one item again from its final question (a reviewer's correction, or the model's question). */
export function reclassifyItem(db: Db, itemId: number): void {
  const item = itemQuestionTexts(db, itemId);
  if (!item) return;
  setQuestionRelations(db, [{ id: itemId, relation: questionRelation(item.factual_query, item.question, item.assumption) }]);
}
