import { z } from 'zod';
import { nameText, freeText } from '../domain/text-input';
import { IdSchema } from './common';
import { endpoint } from './endpoint';
import { ItemFilterSchema } from './items';

/**
 * Assignment (issue 16 point 6) and the Items page's bulk actions on it: curators give items to a
 * reviewer or a named queue of reviewers, take them back, mark them gold or retire them. A bulk
 * action names its items as checked ids or as a filter of the Items list, which the server
 * resolves to ids when it acts, in the same transaction as the change.
 */

/** The items a bulk action acts on: checked ids, or every item the list's filter matches now. */
export const BulkTargetSchema = z.union([
  z.object({ item_ids: z.array(z.number().int().positive()).min(1).max(1000) }).strict(),
  z.object({ filter: ItemFilterSchema }).strict(),
]);
export type BulkTarget = z.infer<typeof BulkTargetSchema>;

/** Who an item is assigned to: one reviewer, or one named queue. */
export const AssigneeSchema = z.union([
  z.object({ reviewer_id: z.number().int().positive() }).strict(),
  z.object({ queue_id: z.number().int().positive() }).strict(),
]);
export type Assignee = z.infer<typeof AssigneeSchema>;

/** A queue's name: shown in tags and typed in the Items list's `assigned=queue:<name>` filter. */
export const QueueNameSchema = nameText().trim().min(1).max(60);

const PersonSchema = z.object({ id: z.number().int(), username: z.string() });

export const ReviewQueueSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  members: z.array(PersonSchema),
  /** Items assigned to the queue now (decided ones too). */
  items: z.number().int(),
});
export type ReviewQueue = z.infer<typeof ReviewQueueSchema>;

// GET /api/queues   (curator) → every named queue with its members, and the enabled users one may assign to
export const QueueListResponseSchema = z.object({ queues: z.array(ReviewQueueSchema), reviewers: z.array(PersonSchema) });
// POST /api/queues   (curator) → the new queue
export const CreateQueueRequestSchema = z.object({ name: QueueNameSchema });
export const QueueResponseSchema = z.object({ queue: ReviewQueueSchema });
// POST /api/queues/:id/members   (curator): add a reviewer → the queue
export const QueueMemberRequestSchema = z.object({ user_id: z.number().int().positive() });
// DELETE /api/queues/:id/members/:user_id   (curator) → the queue
export const QueueMemberParamsSchema = z.object({ id: IdSchema, user_id: IdSchema });

// PATCH /api/queues/:id   (curator): rename → the queue; 409 when another queue has the name (names are case-insensitive)
export const RenameQueueRequestSchema = z.object({ name: QueueNameSchema });
// DELETE /api/queues/:id   (curator): the queue's items lose their assignment (back to the general queue); nothing else is deleted
export const DeleteQueueResponseSchema = z.object({ unassigned: z.number().int() });

/** An item's assignment as the Item page shows it to curators: to whom, by whom, when. */
export const ItemAssignmentDetailSchema = z.object({
  /** Set when assigned to one reviewer; `queue` is null then. */
  reviewer: PersonSchema.nullable(),
  queue: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** The curator's username; null when that account is gone. */
  assigned_by: z.string().nullable(),
  assigned_at: z.string(),
});
export type ItemAssignmentDetail = z.infer<typeof ItemAssignmentDetailSchema>;
// GET /api/items/:id/assignment   (curator; reviewers never learn who else is assigned) → null when in the general queue
export const ItemAssignmentResponseSchema = z.object({ assignment: ItemAssignmentDetailSchema.nullable() });

// POST /api/items/assign   (curator) → how many items are now assigned to the assignee
export const AssignRequestSchema = z.object({ target: BulkTargetSchema, to: AssigneeSchema });
export const AssignResponseSchema = z.object({ assigned: z.number().int() });
// POST /api/items/unassign   (curator) → how many assignments were removed
export const UnassignRequestSchema = z.object({ target: BulkTargetSchema });
export const UnassignResponseSchema = z.object({ unassigned: z.number().int() });
// POST /api/items/retire   (curator) → how many items were retired (already retired ones are not counted)
export const RetireRequestSchema = z.object({ target: BulkTargetSchema, reason: freeText().trim().max(500).default('') });
export const RetireResponseSchema = z.object({ retired: z.number().int() });
// POST /api/items/unretire   (curator) → how many items came back
export const UnretireRequestSchema = z.object({ target: BulkTargetSchema });
export const UnretireResponseSchema = z.object({ restored: z.number().int() });
// POST /api/items/gold   (curator): mark many accepted items gold → marked; the rest (not accepted, or gold already) skipped
export const BulkGoldRequestSchema = z.object({ target: BulkTargetSchema });
export const BulkGoldResponseSchema = z.object({ marked: z.number().int(), skipped: z.number().int() });

export const assignmentApi = {
  queues: endpoint('GET', '/api/queues', { response: QueueListResponseSchema }),
  createQueue: endpoint('POST', '/api/queues', { body: CreateQueueRequestSchema, response: QueueResponseSchema, status: 201 }),
  addMember: endpoint('POST', '/api/queues/:id/members', { params: z.object({ id: IdSchema }), body: QueueMemberRequestSchema, response: QueueResponseSchema }),
  renameQueue: endpoint('PATCH', '/api/queues/:id', { params: z.object({ id: IdSchema }), body: RenameQueueRequestSchema, response: QueueResponseSchema }),
  deleteQueue: endpoint('DELETE', '/api/queues/:id', { params: z.object({ id: IdSchema }), response: DeleteQueueResponseSchema }),
  itemAssignment: endpoint('GET', '/api/items/:id/assignment', { params: z.object({ id: IdSchema }), response: ItemAssignmentResponseSchema }),
  removeMember: endpoint('DELETE', '/api/queues/:id/members/:user_id', { params: QueueMemberParamsSchema, response: QueueResponseSchema }),
  assign: endpoint('POST', '/api/items/assign', { body: AssignRequestSchema, response: AssignResponseSchema }),
  unassign: endpoint('POST', '/api/items/unassign', { body: UnassignRequestSchema, response: UnassignResponseSchema }),
  retire: endpoint('POST', '/api/items/retire', { body: RetireRequestSchema, response: RetireResponseSchema }),
  unretire: endpoint('POST', '/api/items/unretire', { body: UnretireRequestSchema, response: UnretireResponseSchema }),
  gold: endpoint('POST', '/api/items/gold', { body: BulkGoldRequestSchema, response: BulkGoldResponseSchema }),
} as const;
