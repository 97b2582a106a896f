import { z } from 'zod';
import { AnswerKindSchema, ChartGroupSourceSchema } from '../domain/benchmark-fields';
import { ChartTypeSchema } from '../domain/chart-types';
import { QaSourceSchema } from '../domain/qa';
import { freeText, nameText } from '../domain/text-input';
import { MAX_GROUP_CHARTS } from '../table/edit';
import { DataTableSchema } from '../table/model';
import { IdParamSchema, IdSchema, PageQuerySchema } from './common';
import { endpoint } from './endpoint';

/**
 * Chart groups as curators keep them: MultiChartQA's groups (membership from the benchmark's
 * files, read-only here) and groups a curator makes of 2–4 charts of one split, in the order
 * their questions address them ("the first chart", "the second chart").
 */

/** A group needs at least two charts: a question over one chart is a chart's own question. */
export const MIN_GROUP_CHARTS = 2;

export const GroupMemberSchema = z.object({
  /** 1-based: the order the group's questions address its charts in. */
  position: z.number().int().min(1).max(MAX_GROUP_CHARTS),
  chart_id: z.number().int(),
  imgname: z.string(),
  title: z.string().nullable(),
  chart_type: ChartTypeSchema,
});
export type GroupMember = z.infer<typeof GroupMemberSchema>;

export const ChartGroupSummarySchema = z.object({
  id: z.number().int(),
  split: z.string(),
  name: z.string(),
  source: ChartGroupSourceSchema,
  members: z.array(GroupMemberSchema),
  question_count: z.number().int(),
  /** HQA items written over the group's questions: while there are any, the group cannot be deleted. */
  item_count: z.number().int(),
  created_at: z.string(),
});
export type ChartGroupSummary = z.infer<typeof ChartGroupSummarySchema>;

/** One chart of a group as its page shows it: side by side, each with its table (or none yet). */
export const GroupChartSchema = GroupMemberSchema.extend({
  /** Null: the chart is known only by its image; extract or type its table on the chart's page. */
  data_table: DataTableSchema.nullable(),
  table_confirmed: z.boolean(),
  has_image: z.boolean(),
});
export type GroupChart = z.infer<typeof GroupChartSchema>;

export const GroupQuestionSchema = z.object({
  id: z.number().int(),
  query: z.string(),
  label: z.string(),
  source: QaSourceSchema,
  answer_kind: AnswerKindSchema,
  item_count: z.number().int(),
});
export type GroupQuestion = z.infer<typeof GroupQuestionSchema>;

// GET /api/chart-groups
export const ChartGroupListQuerySchema = PageQuerySchema.extend({
  split: z.string().max(100).optional(),
  source: ChartGroupSourceSchema.optional(),
});
export type ChartGroupListQuery = z.infer<typeof ChartGroupListQuerySchema>;
export const ChartGroupListResponseSchema = z.object({
  groups: z.array(ChartGroupSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type ChartGroupListResponse = z.infer<typeof ChartGroupListResponseSchema>;

// GET /api/chart-groups/:id
export const ChartGroupDetailResponseSchema = z.object({
  group: ChartGroupSummarySchema,
  charts: z.array(GroupChartSchema),
  questions: z.array(GroupQuestionSchema),
});
export type ChartGroupDetailResponse = z.infer<typeof ChartGroupDetailResponseSchema>;

/** A group's name: one line a curator recognises it by, unique within its split (compared without case). */
const GroupName = nameText()
  .trim()
  .min(1, 'empty')
  .max(200)
  .refine((text) => !/[\r\n]/.test(text), 'one line only');

/** The charts in the order the group's questions will address them: 2–4 distinct ids. */
const ChartIds = z
  .array(IdSchema)
  .min(MIN_GROUP_CHARTS, `a group has at least ${MIN_GROUP_CHARTS} charts`)
  .max(MAX_GROUP_CHARTS, `a group has at most ${MAX_GROUP_CHARTS} charts`)
  .superRefine((ids, ctx) => {
    ids.forEach((id, index) => {
      const first = ids.indexOf(id);
      if (first !== index) ctx.addIssue({ code: 'custom', path: [index], message: `chart ${id} is already chart ${first + 1} of the group` });
    });
  });

// POST /api/chart-groups   (curator)
export const CreateChartGroupRequestSchema = z.object({ name: GroupName, chart_ids: ChartIds });
export type CreateChartGroupRequest = z.input<typeof CreateChartGroupRequestSchema>;
export const ChartGroupResponseSchema = z.object({ group: ChartGroupSummarySchema });
export type ChartGroupResponse = z.infer<typeof ChartGroupResponseSchema>;

// PATCH /api/chart-groups/:id   (curator): rename, or reorder (the same charts in a new order)
export const UpdateChartGroupRequestSchema = z
  .object({ name: GroupName.optional(), chart_ids: ChartIds.optional() })
  .refine((body) => body.name !== undefined || body.chart_ids !== undefined, 'give a name or chart_ids');
export type UpdateChartGroupRequest = z.input<typeof UpdateChartGroupRequestSchema>;

// POST /api/chart-groups/:id/questions   (curator): a factual question over the group's charts
export const AddGroupQuestionRequestSchema = z.object({
  query: freeText().trim().min(1, 'empty').max(1000),
  label: freeText().trim().min(1, 'empty').max(200),
});
export type AddGroupQuestionRequest = z.input<typeof AddGroupQuestionRequestSchema>;
export const AddGroupQuestionResponseSchema = z.object({ question: GroupQuestionSchema });

// DELETE /api/chart-groups/:id   (curator): a curator's group nothing depends on
export const DeleteChartGroupResponseSchema = z.object({ deleted_questions: z.number().int() });

export const chartGroupsApi = {
  list: endpoint('GET', '/api/chart-groups', { query: ChartGroupListQuerySchema, response: ChartGroupListResponseSchema }),
  get: endpoint('GET', '/api/chart-groups/:id', { params: IdParamSchema, response: ChartGroupDetailResponseSchema }),
  create: endpoint('POST', '/api/chart-groups', { body: CreateChartGroupRequestSchema, response: ChartGroupResponseSchema, status: 201 }),
  /** A MultiChartQA group may be renamed, never reordered; a group with questions keeps its order (they name its charts by position). */
  update: endpoint('PATCH', '/api/chart-groups/:id', { params: IdParamSchema, body: UpdateChartGroupRequestSchema, response: ChartGroupResponseSchema }),
  addQuestion: endpoint('POST', '/api/chart-groups/:id/questions', { params: IdParamSchema, body: AddGroupQuestionRequestSchema, response: AddGroupQuestionResponseSchema, status: 201 }),
  /** Refused (409, saying how many) while any item is written over the group's questions; its questions go with it. */
  remove: endpoint('DELETE', '/api/chart-groups/:id', { params: IdParamSchema, response: DeleteChartGroupResponseSchema }),
} as const;
