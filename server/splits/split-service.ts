import type { Db } from '../../db/database';
import type { SplitSummary, SplitUpdate } from '../../shared/api/splits';
import { getSplit, setSplitArchived, setSplitLabel } from './split-queries';

export class SplitNotFoundError extends Error {}

/** Renames (a display label only: charts.split, exports and runs keep the name) and/or archives a split, in one transaction. */
export function updateSplit(db: Db, name: string, update: SplitUpdate, userId: number): SplitSummary {
  return db.transaction(() => {
    if (getSplit(db, name) === null) throw new SplitNotFoundError(`split "${name}" not found`);
    if (update.label !== undefined) setSplitLabel(db, name, update.label === null || update.label === '' ? null : update.label);
    if (update.archived !== undefined) setSplitArchived(db, name, update.archived, userId);
    const updated = getSplit(db, name);
    if (updated === null) throw new SplitNotFoundError(`split "${name}" not found`);
    return updated;
  })();
}
