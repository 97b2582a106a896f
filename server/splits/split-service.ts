import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import type { SplitDeleted, SplitSummary, SplitUpdate } from '../../shared/api/splits';
import { DomainError, notFound } from '../domain-error';
import type { DomainEventEmitter } from '../events/event-bus';
import { deleteSplitRows, getSplit, setSplitArchived, setSplitLabel, splitDependents, type SplitDependents } from './split-queries';

/** A split something was made from: deleting it would take away what a decision or a cost record rests on. */
export class SplitInUseError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/**
 * Renames (a display label only: charts.split, exports and runs keep the name) and/or archives a
 * split, in one transaction with an event (and its audit entry) for each change that changed something (a label
 * set to what it was, or archiving an archived split, records nothing).
 */
export function updateSplit(db: Db, events: DomainEventEmitter, name: string, update: SplitUpdate, userId: number): SplitSummary {
  return immediateTransaction(db, () => {
    const before = getSplit(db, name);
    if (before === null) throw notFound(`split "${name}"`);
    if (update.label !== undefined) {
      const label = update.label === null || update.label === '' ? null : update.label;
      setSplitLabel(db, name, label);
      if (label !== before.label) events.emit('split.relabelled', { actor_id: userId, name, from: before.label, to: label });
    }
    if (update.archived !== undefined) {
      setSplitArchived(db, name, update.archived, userId);
      if (update.archived !== (before.archived_at !== null)) {
        events.emit(update.archived ? 'split.archived' : 'split.unarchived', { actor_id: userId, name });
      }
    }
    const updated = getSplit(db, name);
    if (updated === null) throw notFound(`split "${name}"`);
    events.emit('split.updated', { split: updated });
    return updated;
  });
}

/** "3 items and 12 run tasks" — what stands in the way, in words. */
function dependentsText(dependents: SplitDependents): string {
  const parts = [
    [dependents.items, 'item', 'items'],
    [dependents.run_tasks, 'run task', 'run tasks'],
    [dependents.model_calls, 'model call', 'model calls'],
    [dependents.job_tasks, 'extraction or chart-type job task', 'extraction or chart-type job tasks'],
  ] as const;
  const named = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  return named.length <= 1 ? named.join('') : `${named.slice(0, -1).join(', ')} and ${named.at(-1) ?? ''}`;
}

/**
 * Deletes a split nothing was made from yet — a wrong import (0 questions, the wrong folder) —
 * with its charts, images, questions and chart groups, in one transaction with its audit entry.
 * A split with items, run tasks, model calls or job tasks is refused: archive it instead.
 */
export function deleteSplit(db: Db, events: DomainEventEmitter, name: string, userId: number): SplitDeleted {
  return immediateTransaction(db, () => {
    if (getSplit(db, name) === null) throw notFound(`split "${name}"`);
    const dependents = splitDependents(db, name);
    if (dependents.items + dependents.run_tasks + dependents.model_calls + dependents.job_tasks > 0) {
      throw new SplitInUseError(`split "${name}" cannot be deleted: work was made from it (${dependentsText(dependents)}). Archive it instead: that keeps everything.`);
    }
    const deleted = deleteSplitRows(db, name);
    events.emit('split.deleted', { name, actor_id: userId, deleted });
    return { name, ...deleted };
  });
}
