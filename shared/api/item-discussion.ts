import { z } from 'zod';
import { RoleSchema } from '../domain/roles';
import { ItemStatusSchema } from '../domain/generation';
import { freeText } from '../domain/text-input';
import { HqaItemDraftSchema } from '../generation/item-draft';
import { IdParamSchema } from './common';
import { endpoint } from './endpoint';
import { ItemDetailSchema } from './items';

/** An item's discussion (reviewers and curators) and its curators' direct edits. */

export const COMMENT_MAX_CHARS = 4000;

export const ItemCommentSchema = z.object({
  id: z.number().int(),
  item_id: z.number().int(),
  /** The role says whose comment a reviewer may read before the item is decided (blind review). */
  author: z.object({ id: z.number().int(), username: z.string(), role: RoleSchema }),
  body: z.string(),
  /** The existing users the body names as @username, each once. */
  mentions: z.array(z.string()),
  created_at: z.string(),
});
export type ItemComment = z.infer<typeof ItemCommentSchema>;

// GET /api/items/:id/comments   (reviewer or curator): the whole thread, oldest first
export const ItemCommentsResponseSchema = z.object({ comments: z.array(ItemCommentSchema) });

// POST /api/items/:id/comments
export const PostCommentRequestSchema = z.object({ body: freeText().trim().min(1, 'is required').max(COMMENT_MAX_CHARS) });
export type PostCommentRequest = z.infer<typeof PostCommentRequestSchema>;
export const PostCommentResponseSchema = z.object({ comment: ItemCommentSchema });

/** The fields a curator may edit directly. */
export const EDITABLE_ITEM_FIELDS = ['assumption', 'question', 'answer'] as const;
export const EditableItemFieldSchema = z.enum(EDITABLE_ITEM_FIELDS);
export type EditableItemField = z.infer<typeof EditableItemFieldSchema>;

export const ItemFieldChangeSchema = z.object({ field: EditableItemFieldSchema, before: z.string(), after: z.string() });
export type ItemFieldChange = z.infer<typeof ItemFieldChangeSchema>;

// PATCH /api/items/:id   (curator): at least one field and a reason; the answer edited is the
// answer the export carries (a reviewer's correction it replaces is kept in the edit's `before`).
export const EditItemRequestSchema = z
  .object({
    assumption: HqaItemDraftSchema.shape.assumption.optional(),
    question: HqaItemDraftSchema.shape.question.optional(),
    answer: HqaItemDraftSchema.shape.answer.optional(),
    reason: freeText().trim().min(1, 'is required').max(1000),
  })
  .refine((body) => EDITABLE_ITEM_FIELDS.some((field) => body[field] !== undefined), {
    message: 'name at least one of assumption, question, answer',
    path: ['answer'],
  });
export type EditItemRequest = z.infer<typeof EditItemRequestSchema>;

export const ItemEditSchema = z.object({
  id: z.number().int(),
  item_id: z.number().int(),
  editor: z.object({ id: z.number().int(), username: z.string() }),
  reason: z.string(),
  changes: z.array(ItemFieldChangeSchema),
  status_at_edit: ItemStatusSchema,
  created_at: z.string(),
});
export type ItemEdit = z.infer<typeof ItemEditSchema>;

/** The verifier runs again on every edit (accepted or not): `item` carries its new verdict. */
export const EditItemResponseSchema = z.object({ item: ItemDetailSchema, edit: ItemEditSchema });

// GET /api/items/:id/edits   (reviewer or curator): every curator edit, oldest first
export const ItemEditsResponseSchema = z.object({ edits: z.array(ItemEditSchema) });

export const itemDiscussionApi = {
  comments: endpoint('GET', '/api/items/:id/comments', { params: IdParamSchema, response: ItemCommentsResponseSchema }),
  /** Mentions of existing users notify them (`comment.mentioned`); everyone gets `comment.created`. */
  postComment: endpoint('POST', '/api/items/:id/comments', {
    params: IdParamSchema,
    body: PostCommentRequestSchema,
    response: PostCommentResponseSchema,
    status: 201,
  }),
  /** Curators only; a reason is required. */
  edit: endpoint('PATCH', '/api/items/:id', { params: IdParamSchema, body: EditItemRequestSchema, response: EditItemResponseSchema }),
  edits: endpoint('GET', '/api/items/:id/edits', { params: IdParamSchema, response: ItemEditsResponseSchema }),
} as const;
