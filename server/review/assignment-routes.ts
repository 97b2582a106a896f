import { immediateTransaction } from '../../db/transactions';
import { assignmentApi } from '../../shared/api/assignment';
import type { AppContext } from '../app-context';
import type { ApiRouter } from '../http/handle';
import { handle } from '../http/handle';
import { AssignmentCommands } from './assignment-commands';
import { assignmentOfItem, createQueue, queuesAndReviewers, resolveTarget } from './assignment-service';
import { markGoldMany } from './gold-service';
import type { ReviewCommands } from './review-commands';

/**
 * Curators' named queues and the Items page's bulk assign, unassign, retire, restore and mark
 * gold. A change that may move what reviewers are served tells everyone (`assignment.changed`,
 * which names nobody), so each reviewer's "assigned to you" is fetched again.
 */
export function mountAssignmentRoutes(api: ApiRouter, ctx: AppContext, review: ReviewCommands): void {
  const db = ctx.db;
  const assignments = new AssignmentCommands(db, ctx.events);
  handle(api, assignmentApi.queues, 'curator', () => queuesAndReviewers(db));
  handle(api, assignmentApi.createQueue, 'curator', ({ body, user }) => ({ queue: createQueue(db, ctx.events, body.name, user.id) }));
  handle(api, assignmentApi.renameQueue, 'curator', ({ params, body, user }) => ({ queue: assignments.renameQueue(params.id, body.name, user.id) }));
  handle(api, assignmentApi.deleteQueue, 'curator', ({ params, user }) => ({ unassigned: assignments.deleteQueue(params.id, user.id) }));
  handle(api, assignmentApi.itemAssignment, 'curator', ({ params }) => ({ assignment: assignmentOfItem(db, params.id) }));
  handle(api, assignmentApi.addMember, 'curator', ({ params, body, user }) => ({ queue: assignments.addMember(params.id, body.user_id, user.id) }));
  handle(api, assignmentApi.removeMember, 'curator', ({ params, user }) => ({ queue: assignments.removeMember(params.id, params.user_id, user.id) }));
  handle(api, assignmentApi.assign, 'curator', ({ body, user }) => ({ assigned: assignments.assign(body.target, body.to, user.id) }));
  handle(api, assignmentApi.unassign, 'curator', ({ body, user }) => ({ unassigned: assignments.unassign(body.target, user.id) }));
  handle(api, assignmentApi.retire, 'curator', ({ body, user }) => ({ retired: review.retire(body.target, body.reason, user.id) }));
  handle(api, assignmentApi.unretire, 'curator', ({ body, user }) => ({ restored: assignments.restore(body.target, user.id) }));
  // The ids and the marks in one transaction, like every bulk action on a filter.
  handle(api, assignmentApi.gold, 'curator', ({ body, user }) => immediateTransaction(db, () => markGoldMany(db, ctx.events, resolveTarget(db, body.target, user.id), user.id)));
}
