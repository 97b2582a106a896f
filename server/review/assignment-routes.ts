import { assignmentApi } from '../../shared/api/assignment';
import type { AppContext } from '../app-context';
import type { ApiRouter } from '../http/handle';
import { handle } from '../http/handle';
import {
  addQueueMember,
  assignItems,
  assignmentOfItem,
  createQueue,
  deleteQueue,
  queuesAndReviewers,
  removeQueueMember,
  renameQueue,
  resolveTarget,
  restoreItems,
  unassignItems,
} from './assignment-service';
import { markGoldMany } from './gold-service';
import type { ReviewCommands } from './review-commands';

/**
 * Curators' named queues and the Items page's bulk assign, unassign, retire, restore and mark
 * gold. A change that may move what reviewers are served tells everyone (`assignment.changed`,
 * which names nobody), so each reviewer's "assigned to you" is fetched again.
 */
export function mountAssignmentRoutes(api: ApiRouter, ctx: AppContext, review: ReviewCommands): void {
  const db = ctx.db;
  const changed = (items: number) => {
    if (items > 0) ctx.publish('assignment.changed', { items });
  };
  handle(api, assignmentApi.queues, 'curator', () => queuesAndReviewers(db));
  handle(api, assignmentApi.createQueue, 'curator', ({ body, user }) => ({ queue: createQueue(db, body.name, user.id) }));
  // A rename or delete changes tags and the queue panels even when no item moves: told always.
  handle(api, assignmentApi.renameQueue, 'curator', ({ params, body, user }) => {
    const queue = renameQueue(db, params.id, body.name, user.id);
    ctx.publish('assignment.changed', { items: queue.items });
    return { queue };
  });
  handle(api, assignmentApi.deleteQueue, 'curator', ({ params, user }) => {
    const unassigned = deleteQueue(db, params.id, user.id);
    ctx.publish('assignment.changed', { items: unassigned });
    return { unassigned };
  });
  handle(api, assignmentApi.itemAssignment, 'curator', ({ params }) => ({ assignment: assignmentOfItem(db, params.id) }));
  handle(api, assignmentApi.addMember, 'curator', ({ params, body, user }) => {
    const queue = addQueueMember(db, params.id, body.user_id, user.id);
    changed(queue.items);
    return { queue };
  });
  handle(api, assignmentApi.removeMember, 'curator', ({ params, user }) => {
    const queue = removeQueueMember(db, params.id, params.user_id, user.id);
    changed(queue.items);
    return { queue };
  });
  handle(api, assignmentApi.assign, 'curator', ({ body, user }) => {
    const assigned = assignItems(db, body.target, body.to, user.id);
    changed(assigned);
    return { assigned };
  });
  handle(api, assignmentApi.unassign, 'curator', ({ body, user }) => {
    const unassigned = unassignItems(db, body.target, user.id);
    changed(unassigned);
    return { unassigned };
  });
  handle(api, assignmentApi.retire, 'curator', ({ body, user }) => {
    const retired = review.retire(body.target, body.reason, user.id);
    changed(retired);
    return { retired };
  });
  handle(api, assignmentApi.unretire, 'curator', ({ body, user }) => {
    const restored = restoreItems(db, body.target, user.id);
    changed(restored);
    return { restored };
  });
  // The ids and the marks in one transaction, like every bulk action on a filter.
  handle(api, assignmentApi.gold, 'curator', ({ body, user }) =>
    db.transaction(() => markGoldMany(db, resolveTarget(db, body.target, user.id), user.id)).immediate(),
  );
}
