import { z } from 'zod';
import { ChartTypeSchema } from '../domain/chart-types';
import { ItemOriginSchema, ItemStatusSchema, QUESTION_RELATIONS, QuestionRelationSchema, RequeueReasonSchema } from '../domain/generation';
import { BIAS_FLAGS, BiasFlagSchema } from '../generation/bias-guards';
import { HqaItemDraftSchema } from '../generation/item-draft';
import { AnswerTypeSchema } from '../table/answers';
import { TableStateSchema } from '../table-provenance/table-state';
import { VerifierResultSchema } from '../table/verify';
import { IdParamSchema, IdSchema, PageQuerySchema } from './common';
import { ItemGroupSchema } from './item-group';
import { endpoint } from './endpoint';

export const ItemSummarySchema = z.object({
  id: z.number().int(),
  qa_id: z.number().int(),
  chart_id: z.number().int(),
  imgname: z.string(),
  chart_type: ChartTypeSchema,
  proposal_id: z.number().int().nullable(),
  run_id: z.number().int().nullable(),
  origin: ItemOriginSchema,
  model: z.string().nullable(),
  question: z.string(),
  answer: z.string(),
  answer_type: AnswerTypeSchema,
  affects_answer: z.boolean(),
  verifier_match: z.boolean().nullable(),
  bias_flags: z.array(BiasFlagSchema),
  /** Null for an item not classified yet (made before classification existed; the server classifies those at start). */
  question_relation: QuestionRelationSchema.nullable(),
  /** The verifier found the same answer before and after the edit; null when it could not compute both. */
  answer_unchanged: z.boolean().nullable(),
  /** Kept on purpose although the assumption leaves the answer unchanged. */
  is_control: z.boolean(),
  /** The edit performs the operation the proposal names; null without a proposal or when its operation cannot be read. */
  proposal_consistent: z.boolean().nullable(),
  /** Why the system sent the item back to review, if it did. */
  requeue_reason: RequeueReasonSchema.nullable(),
  status: ItemStatusSchema,
  created_at: z.string(),
  /** The chart's table: `unconfirmed` (extracted, nobody vouched for it) marks the item `unverified: table not confirmed`. */
  table_state: TableStateSchema,
});
export type ItemSummary = z.infer<typeof ItemSummarySchema>;

export const ItemDetailSchema = ItemSummarySchema.extend({
  assumption: z.string(),
  rationale: z.string(),
  edit: z.unknown().nullable(),
  program: z.string(),
  verifier: VerifierResultSchema,
  final_answer: z.string().nullable(),
  factual_query: z.string(),
  factual_label: z.string(),
  proposal_text: z.string().nullable(),
  /** Colour words of the factual (or hypothetical) question that the chart cannot show: it is drawn from its table without the original's colours. */
  unverifiable_colours: z.array(z.string()),
});
export type ItemDetail = z.infer<typeof ItemDetailSchema>;

/** A yes/no list filter as a query string carries it. */
export const FlagFilterSchema = z.enum(['true', 'false']);
export type FlagFilter = z.infer<typeof FlagFilterSchema>;
export const QUESTION_RELATION_FILTERS = [...QUESTION_RELATIONS, 'unclassified'] as const;
export const QuestionRelationFilterSchema = z.enum(QUESTION_RELATION_FILTERS);
export type QuestionRelationFilter = z.infer<typeof QuestionRelationFilterSchema>;

/** The items list's orders; each breaks ties by id in the same direction, so a cursor names one place. */
export const ITEM_SORTS = ['newest', 'oldest', 'status', 'chart'] as const;
export const ItemSortSchema = z.enum(ITEM_SORTS);
export type ItemSort = z.infer<typeof ItemSortSchema>;
/** `any`: the verifier's lint found something; `error`: something of severity error; `none`: nothing. */
export const LintFilterSchema = z.enum(['any', 'error', 'none']);
export type LintFilter = z.infer<typeof LintFilterSchema>;
/** `any`: some bias guard flagged the item; `none`: none did; a flag's code: that guard did. */
export const BiasFilterSchema = z.enum(['any', 'none', ...BIAS_FLAGS]);
export type BiasFilter = z.infer<typeof BiasFilterSchema>;

/** Who items are assigned to, as the `assigned` filter reads it: `me`, `none`, `queue:<name>` or a username. */
export const AssignedFilterSchema = z.string().trim().min(1).max(80);

/** An item's assignment and retirement as the Items list shows them (migration 021). */
export const ItemAssignmentSchema = z.object({
  item_id: z.number().int(),
  /** The reviewer's username, when assigned to one. */
  reviewer: z.string().nullable(),
  /** The queue's name, when assigned to a named queue. */
  queue: z.string().nullable(),
  retired: z.boolean(),
});
export type ItemAssignment = z.infer<typeof ItemAssignmentSchema>;

/** What narrows the items list; the list and the bulk actions on "the whole filter" take the same fields. */
export const ItemFilterSchema = z.object({
  run_id: IdSchema.optional(),
  chart_id: IdSchema.optional(),
  proposal_id: IdSchema.optional(),
  status: ItemStatusSchema.optional(),
  origin: ItemOriginSchema.optional(),
  chart_type: ChartTypeSchema.optional(),
  /** `false`: only items whose verifier disagreed with their answer. */
  verifier_match: z.enum(['true', 'false']).optional(),
  /** Items this user reviewed. */
  reviewer_id: IdSchema.optional(),
  /** `unclassified`: items whose relation to the factual question is not known yet. */
  question_relation: QuestionRelationFilterSchema.optional(),
  /** `true`: the verifier found the same answer before and after the edit; `false`: it found the answer changed (unknown ones match neither). */
  answer_unchanged: FlagFilterSchema.optional(),
  /** `false`: items whose edit does not perform their proposal's operation (unknown ones match neither). */
  proposal_consistent: FlagFilterSchema.optional(),
  is_control: FlagFilterSchema.optional(),
  /** Full-text search over question, assumption and answer (words, the last one as a prefix). */
  q: z.string().trim().max(200).optional(),
  lint: LintFilterSchema.optional(),
  bias: BiasFilterSchema.optional(),
  /** `true`: items the system sent back to review because their chart's table changed. */
  stale: FlagFilterSchema.optional(),
  /** `unconfirmed`: items on a chart whose extracted table no curator has confirmed yet. */
  table: TableStateSchema.optional(),
  /** Items of one split (charts.split, the split's folder name). */
  split: z.string().trim().min(1).max(200).optional(),
  /** `me`, `none`, `queue:<name>` or a reviewer's username: who the items are assigned to (migration 021). */
  assigned: AssignedFilterSchema.optional(),
  /** `true`: only retired items; `false`: none of them. */
  retired: FlagFilterSchema.optional(),
});
export type ItemFilter = z.infer<typeof ItemFilterSchema>;

// GET /api/items: keyset paging with `cursor` (from a previous page's next_cursor or
// prev_cursor; `page` is then ignored), or `page` for short scoped lists (a run's, a chart's).
export const ItemListQuerySchema = PageQuerySchema.extend({
  ...ItemFilterSchema.shape,
  /** Default `newest`. */
  sort: ItemSortSchema.optional(),
  /** Opaque; made for one sort, refused with another. */
  cursor: z.string().min(1).max(400).optional(),
});
export type ItemListQuery = z.infer<typeof ItemListQuerySchema>;
export const ItemListResponseSchema = z.object({
  items: z.array(ItemSummarySchema),
  total: z.number().int(),
  /** The page after this one, or null at the end. */
  next_cursor: z.string().nullable(),
  /** The page before this one, or null at the start. */
  prev_cursor: z.string().nullable(),
  /** The page's items that are assigned or retired; the others are neither. */
  assignments: z.array(ItemAssignmentSchema).default([]),
});
export type ItemListResponse = z.infer<typeof ItemListResponseSchema>;

// POST /api/items/requeue   (curator): every item the filter matches back to the review queue, in one transaction
export const BulkRequeueRequestSchema = z.object({ filter: ItemFilterSchema });
export const BulkRequeueResponseSchema = z.object({ requeued: z.number().int() });

// GET /api/items/:id. `group`: an item over a chart group, every chart in order (the edited one
// marked); null for an item over one chart. Defaults so a body written before groups still parses.
export const ItemDetailResponseSchema = z.object({ item: ItemDetailSchema, group: ItemGroupSchema.nullable().default(null) });

// POST /api/items   (reviewer or curator: a hand-written item for a factual QA). No
// `affects_answer`: the server computes it with the verifier (shared/generation/affects-answer.ts).
export const CreateItemRequestSchema = HqaItemDraftSchema.omit({ affects_answer: true }).extend({
  qa_id: z.number().int().positive(),
  proposal_id: z.number().int().positive().optional(),
  /** People may leave the edit out when the assumption cannot be written as one. */
  edit: HqaItemDraftSchema.shape.edit.nullable().optional(),
});
export type CreateItemRequest = z.infer<typeof CreateItemRequestSchema>;

export const itemsApi = {
  /** A reviewer may filter by reviewer_id only for themselves (blind review); curators by anyone. */
  list: endpoint('GET', '/api/items', { query: ItemListQuerySchema, response: ItemListResponseSchema }),
  /** Curators only: the whole filter's items, not one page's. */
  requeue: endpoint('POST', '/api/items/requeue', { body: BulkRequeueRequestSchema, response: BulkRequeueResponseSchema }),
  get: endpoint('GET', '/api/items/:id', { params: IdParamSchema, response: ItemDetailResponseSchema }),
  /** Only curators may attach the item to a proposal. */
  create: endpoint('POST', '/api/items', { body: CreateItemRequestSchema, response: ItemDetailResponseSchema, status: 201 }),
} as const;
