import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import type { Assignee, BulkTarget, ItemAssignmentDetail, ReviewQueue } from '../../shared/api/assignment';
import { DomainError, notFound } from '../domain-error';
import type { DomainEventEmitter } from '../events/event-bus';
import { filteredItemIds } from '../items/item-list-queries';
import {
  assignableReviewers,
  deleteAssignment,
  deleteQueueAssignments,
  deleteQueueMember,
  deleteQueueRow,
  deleteRetired,
  existingItemIds,
  getQueue,
  insertQueue,
  insertQueueMember,
  insertRetired,
  isAssignableReviewer,
  itemAssignmentDetail,
  listQueues,
  queueNameTaken,
  queueNameTakenByOther,
  renameQueueRow,
  upsertAssignment,
} from './assignment-queries';
import { deleteItemLeases, nowIso } from './review-queries';
import { refreshOpenStatus } from './review-service';

/**
 * Assignment (issue 16 point 6): curators give items to one reviewer or to a named queue of
 * reviewers, and take them out of review (retire). Each bulk change resolves its target to item
 * ids and changes them in one IMMEDIATE transaction with one event (and so one audit entry) per item changed, so
 * a filter's count and its change cannot drift apart and a rolled-back change leaves no entry.
 * What the claim does with assignments is in `review-queries.ts` (`findNextClaim`, `OPEN_TO_ME`).
 */

/** The ids a bulk action acts on, now: the checked ids that exist, or every item the filter matches (`assigned=me` is the curator). */
export function resolveTarget(db: Db, target: BulkTarget, curatorId: number): number[] {
  return 'item_ids' in target ? existingItemIds(db, target.item_ids) : filteredItemIds(db, target.filter, curatorId);
}

export function queuesAndReviewers(db: Db): { queues: ReviewQueue[]; reviewers: { id: number; username: string }[] } {
  return { queues: listQueues(db), reviewers: assignableReviewers(db) };
}

function queueOrThrow(db: Db, queueId: number): ReviewQueue {
  const queue = getQueue(db, queueId);
  if (!queue) throw notFound(`queue ${queueId}`);
  return queue;
}

export function createQueue(db: Db, events: DomainEventEmitter, name: string, curatorId: number): ReviewQueue {
  return immediateTransaction(db, () => {
    if (queueNameTaken(db, name)) throw new DomainError('conflict', `a queue named '${name}' exists already`, 'name');
    const id = insertQueue(db, name, curatorId);
    events.emit('queue.created', { curator_id: curatorId, queue_id: id, name });
    return queueOrThrow(db, id);
  });
}

/** Renames a queue; another queue's name (in any case) is a 409 naming it. Its own name in another case is a rename. */
export function renameQueue(db: Db, events: DomainEventEmitter, queueId: number, name: string, curatorId: number): ReviewQueue {
  return immediateTransaction(db, () => {
    const queue = queueOrThrow(db, queueId);
    if (queueNameTakenByOther(db, name, queueId)) throw new DomainError('conflict', `a queue named '${name}' exists already`, 'name');
    if (queue.name === name) return queue;
    renameQueueRow(db, queueId, name);
    events.emit('queue.renamed', { curator_id: curatorId, queue_id: queueId, from: queue.name, to: name });
    return queueOrThrow(db, queueId);
  });
}

/**
 * Deletes a queue: the items assigned to it lose their assignment and are the general queue's
 * again; items, reviews and leases stay. One audit entry carries the count. How many items were unassigned.
 */
export function deleteQueue(db: Db, events: DomainEventEmitter, queueId: number, curatorId: number): number {
  return immediateTransaction(db, () => {
    const queue = queueOrThrow(db, queueId);
    const unassigned = deleteQueueAssignments(db, queueId);
    deleteQueueRow(db, queueId);
    events.emit('queue.deleted', { curator_id: curatorId, queue_id: queueId, name: queue.name, members: queue.members.length, items_unassigned: unassigned });
    return unassigned;
  });
}

/** An item's assignment for the Item page; 404 for an item that does not exist. */
export function assignmentOfItem(db: Db, itemId: number): ItemAssignmentDetail | null {
  if (existingItemIds(db, [itemId]).length === 0) throw notFound(`item ${itemId}`);
  return itemAssignmentDetail(db, itemId);
}

export function addQueueMember(db: Db, events: DomainEventEmitter, queueId: number, userId: number, curatorId: number): ReviewQueue {
  return immediateTransaction(db, () => {
    queueOrThrow(db, queueId);
    if (!isAssignableReviewer(db, userId)) throw new DomainError('bad_request', `body.user_id: user ${userId} is not an enabled reviewer`, 'user_id');
    if (insertQueueMember(db, queueId, userId)) {
      events.emit('queue.member_added', { curator_id: curatorId, queue_id: queueId, user_id: userId });
    }
    return queueOrThrow(db, queueId);
  });
}

export function removeQueueMember(db: Db, events: DomainEventEmitter, queueId: number, userId: number, curatorId: number): ReviewQueue {
  return immediateTransaction(db, () => {
    queueOrThrow(db, queueId);
    if (deleteQueueMember(db, queueId, userId)) {
      events.emit('queue.member_removed', { curator_id: curatorId, queue_id: queueId, user_id: userId });
    }
    return queueOrThrow(db, queueId);
  });
}

/** Assigns the target's items to a reviewer or a queue (an item assigned elsewhere moves); how many are assigned to it now. */
export function assignItems(db: Db, events: DomainEventEmitter, target: BulkTarget, to: Assignee, curatorId: number): number {
  return immediateTransaction(db, () => {
    const assignee = 'reviewer_id' in to ? { reviewerId: to.reviewer_id, queueId: null } : { reviewerId: null, queueId: to.queue_id };
    if (assignee.reviewerId !== null && !isAssignableReviewer(db, assignee.reviewerId)) {
      throw new DomainError('bad_request', `body.to.reviewer_id: user ${assignee.reviewerId} is not an enabled reviewer`, 'to.reviewer_id');
    }
    if (assignee.queueId !== null && !getQueue(db, assignee.queueId)) throw new DomainError('bad_request', `body.to.queue_id: no queue ${assignee.queueId}`, 'to.queue_id');
    const ids = resolveTarget(db, target, curatorId);
    for (const itemId of ids) {
      if (!upsertAssignment(db, itemId, assignee, curatorId)) continue;
      events.emit('item.assigned', { curator_id: curatorId, item_id: itemId, reviewer_id: assignee.reviewerId, queue_id: assignee.queueId });
    }
    return ids.length;
  });
}

/** Removes the target's items' assignments: they are the general queue's again. How many had one. */
export function unassignItems(db: Db, events: DomainEventEmitter, target: BulkTarget, curatorId: number): number {
  return immediateTransaction(db, () => {
    let removed = 0;
    for (const itemId of resolveTarget(db, target, curatorId)) {
      const was = deleteAssignment(db, itemId);
      if (!was) continue;
      removed += 1;
      events.emit('item.unassigned', { curator_id: curatorId, item_id: itemId, reviewer_id: was.reviewer_id, queue_id: was.queue_id });
    }
    return removed;
  });
}

/**
 * Retires the target's items: out of the claim and the queue's size, their reviews, answers,
 * assignment and gold mark kept. A live lease on one is dropped (its holder is told); an item
 * in review that no review holds goes back to pending, so the counts stay what they show.
 */
export function retireItems(
  db: Db,
  events: DomainEventEmitter,
  target: BulkTarget,
  reason: string,
  curatorId: number,
): { retired: number[]; releasedLeases: { item_id: number; reviewer_id: number }[] } {
  return immediateTransaction(db, () => {
    const retired: number[] = [];
    const releasedLeases: { item_id: number; reviewer_id: number }[] = [];
    const now = nowIso();
    for (const itemId of resolveTarget(db, target, curatorId)) {
      if (!insertRetired(db, itemId, curatorId, reason)) continue;
      for (const lease of deleteItemLeases(db, itemId)) releasedLeases.push({ item_id: itemId, reviewer_id: lease.reviewer_id });
      refreshOpenStatus(db, itemId, now);
      events.emit('item.retired', { curator_id: curatorId, item_id: itemId, reason });
      retired.push(itemId);
    }
    return { retired, releasedLeases };
  });
}

/** Brings retired items back into review; how many were retired. */
export function restoreItems(db: Db, events: DomainEventEmitter, target: BulkTarget, curatorId: number): number {
  return immediateTransaction(db, () => {
    let restored = 0;
    for (const itemId of resolveTarget(db, target, curatorId)) {
      if (!deleteRetired(db, itemId)) continue;
      restored += 1;
      events.emit('item.restored', { curator_id: curatorId, item_id: itemId });
    }
    return restored;
  });
}
