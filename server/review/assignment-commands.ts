import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import type { Assignee, BulkTarget, ReviewQueue } from '../../shared/api/assignment';
import type { DomainEventEmitter } from '../events/event-bus';
import { addQueueMember, assignItems, deleteQueue, removeQueueMember, renameQueue, restoreItems, unassignItems } from './assignment-service';

/**
 * Curators' queue and assignment writes with what they say they did: a change that may move what
 * reviewers are served emits `assignment.changed` (which names nobody), so each reviewer's
 * "assigned to you" is fetched again. A rename or delete changes tags and the queue panels even
 * when no item moves: said always; the others only when items moved.
 */
export class AssignmentCommands {
  constructor(
    private readonly db: Db,
    private readonly events: DomainEventEmitter,
  ) {}

  renameQueue(queueId: number, name: string, curatorId: number): ReviewQueue {
    return this.changing(() => renameQueue(this.db, this.events, queueId, name, curatorId), (queue) => ({ items: queue.items, always: true }));
  }

  /** How many items it unassigned. */
  deleteQueue(queueId: number, curatorId: number): number {
    return this.changing(() => deleteQueue(this.db, this.events, queueId, curatorId), (items) => ({ items, always: true }));
  }

  addMember(queueId: number, userId: number, curatorId: number): ReviewQueue {
    return this.changing(() => addQueueMember(this.db, this.events, queueId, userId, curatorId), (queue) => ({ items: queue.items, always: false }));
  }

  removeMember(queueId: number, userId: number, curatorId: number): ReviewQueue {
    return this.changing(() => removeQueueMember(this.db, this.events, queueId, userId, curatorId), (queue) => ({ items: queue.items, always: false }));
  }

  /** How many items it assigned. */
  assign(target: BulkTarget, to: Assignee, curatorId: number): number {
    return this.changing(() => assignItems(this.db, this.events, target, to, curatorId), (items) => ({ items, always: false }));
  }

  /** How many items it unassigned. */
  unassign(target: BulkTarget, curatorId: number): number {
    return this.changing(() => unassignItems(this.db, this.events, target, curatorId), (items) => ({ items, always: false }));
  }

  /** How many retired items it restored to review. */
  restore(target: BulkTarget, curatorId: number): number {
    return this.changing(() => restoreItems(this.db, this.events, target, curatorId), (items) => ({ items, always: false }));
  }

  private changing<T>(write: () => T, moved: (result: T) => { items: number; always: boolean }): T {
    return immediateTransaction(this.db, () => {
      const result = write();
      const { items, always } = moved(result);
      if (always || items > 0) this.events.emit('assignment.changed', { items });
      return result;
    });
  }
}
