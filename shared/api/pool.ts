import { z } from 'zod';
import { ChartTypeSchema } from '../domain/chart-types';
import { ProposalOriginSchema, ProposalStatusSchema } from '../domain/generation';
import { freeText } from '../domain/text-input';
import { ProposalOperationSchema } from '../generation/proposal-consistency';
import { OperationSchema } from './analytics';
import { IdParamSchema, PageQuerySchema } from './common';
import { endpoint } from './endpoint';

/**
 * What a proposal asks for, read from its words: the edit operation the verifier holds its
 * items to (kind, allowed ops, scope, ranks) and the verb–object pair analytics counts.
 */
export const ProposalOperationViewSchema = ProposalOperationSchema.extend({ verb_object: OperationSchema.nullable() });
export type ProposalOperationView = z.infer<typeof ProposalOperationViewSchema>;

/**
 * What a proposal is written for: `chart`, a question over one chart; `group`, a question over a
 * chart group, whose assumption edits one chart of the group (the one of `chart_type`) so the
 * relation the question reads between the charts changes. Stage 2 pairs each with its own kind
 * of question only.
 */
export const PROPOSAL_SCOPES = ['chart', 'group'] as const;
export const ProposalScopeSchema = z.enum(PROPOSAL_SCOPES);
export type ProposalScope = z.infer<typeof ProposalScopeSchema>;

export const ProposalSchema = z.object({
  id: z.number().int(),
  chart_type: ChartTypeSchema,
  scope: ProposalScopeSchema,
  text: z.string(),
  origin: ProposalOriginSchema,
  status: ProposalStatusSchema,
  duplicate_of: z.number().int().nullable(),
  similarity: z.number().nullable(),
  run_id: z.number().int().nullable(),
  round: z.number().int(),
  parent_ids: z.array(z.number().int()),
  child_ids: z.array(z.number().int()),
  item_count: z.number().int(),
  accepted_count: z.number().int(),
  operation: ProposalOperationViewSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Proposal = z.infer<typeof ProposalSchema>;

export const ProposalTextSchema = freeText().trim().min(10, 'must be at least 10 characters').max(400, 'must be at most 400 characters');

// GET /api/pool
export const ProposalListQuerySchema = PageQuerySchema.extend({
  chart_type: ChartTypeSchema.optional(),
  origin: ProposalOriginSchema.optional(),
  status: ProposalStatusSchema.optional(),
  scope: ProposalScopeSchema.optional(),
  q: z.string().trim().max(200).optional(),
});
export type ProposalListQuery = z.infer<typeof ProposalListQuerySchema>;
export const ProposalListResponseSchema = z.object({
  proposals: z.array(ProposalSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  counts: z.array(z.object({ chart_type: ChartTypeSchema, status: ProposalStatusSchema, count: z.number().int() })),
});
export type ProposalListResponse = z.infer<typeof ProposalListResponseSchema>;

// GET /api/pool/:id
export const ProposalResponseSchema = z.object({ proposal: ProposalSchema });

// POST /api/pool   (curator: a hand-written seed)
export const CreateProposalRequestSchema = z.object({ chart_type: ChartTypeSchema, text: ProposalTextSchema, scope: ProposalScopeSchema.default('chart') });
export type CreateProposalRequest = z.infer<typeof CreateProposalRequestSchema>;

// PATCH /api/pool/:id   (curator: edit text, retire or re-activate)
export const UpdateProposalRequestSchema = z
  .object({ text: ProposalTextSchema.optional(), status: z.enum(['active', 'retired']).optional() })
  .refine((body) => body.text !== undefined || body.status !== undefined, { message: 'give text or status' });
export type UpdateProposalRequest = z.infer<typeof UpdateProposalRequestSchema>;

export const poolApi = {
  list: endpoint('GET', '/api/pool', { query: ProposalListQuerySchema, response: ProposalListResponseSchema }),
  get: endpoint('GET', '/api/pool/:id', { params: IdParamSchema, response: ProposalResponseSchema }),
  /** Curator. */
  create: endpoint('POST', '/api/pool', { body: CreateProposalRequestSchema, response: ProposalResponseSchema, status: 201 }),
  /** Curator. */
  update: endpoint('PATCH', '/api/pool/:id', { params: IdParamSchema, body: UpdateProposalRequestSchema, response: ProposalResponseSchema }),
} as const;
