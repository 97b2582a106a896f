import type { Db } from '../../db/database';
import { questionRelation } from '../language/question-relation';
import { setQuestionRelations, unclassifiedItems } from './item-queries';

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
