import { z } from 'zod';
import { ChartTypeSchema } from '../domain/chart-types';
import { IdParamSchema } from './common';
import { endpoint } from './endpoint';
import { ProposalSchema } from './pool';

export const FeedbackEntrySchema = z.object({
  item_id: z.number().int(),
  question: z.string(),
  decision: z.enum(['accept', 'reject']),
  failed: z.array(z.enum(['rationality', 'correctness', 'layout'])),
  notes: z.string(),
  comment: z.string(),
  correction: z.string(),
});
export type FeedbackEntry = z.infer<typeof FeedbackEntrySchema>;

export const ReflectionSchema = z.object({
  id: z.number().int(),
  proposal_id: z.number().int(),
  revised_proposal_id: z.number().int().nullable(),
  trigger: z.enum(['auto', 'manual']),
  engine: z.string(),
  model: z.string(),
  feedback: z.array(FeedbackEntrySchema),
  addressed: z.string().nullable(),
  status: z.enum(['done', 'duplicate', 'failed']),
  error: z.string().nullable(),
  created_at: z.string(),
});
export type Reflection = z.infer<typeof ReflectionSchema>;

// POST /api/reflection/proposals/:id   (curator: reflect now) → the reflection and the revised proposal
export const ReflectResponseSchema = z.object({ reflection: ReflectionSchema, revised: ProposalSchema.nullable() });

// GET /api/reflection/proposals/:id   → the proposal's reflections, newest first, and its current feedback
export const ReflectionListResponseSchema = z.object({ reflections: z.array(ReflectionSchema), feedback: z.array(FeedbackEntrySchema) });

/**
 * A batch of reflections over every proposal with new feedback, reported like a run. Of `done`:
 * `revised` added a revision to the pool, `failed` got none (the reviser's error in `errors`),
 * and the rest revised into a proposal the pool already held (a duplicate).
 */
export const ReflectionBatchSchema = z.object({
  id: z.number().int(),
  status: z.enum(['running', 'done']),
  total: z.number().int(),
  done: z.number().int(),
  revised: z.number().int(),
  failed: z.number().int(),
  errors: z.array(z.object({ proposal_id: z.number().int(), error: z.string() })),
});
export type ReflectionBatch = z.infer<typeof ReflectionBatchSchema>;

// POST /api/reflection/batch   (curator: reflect on every active proposal with new decisions) → { batch }
export const ReflectionBatchRequestSchema = z.object({ chart_type: ChartTypeSchema.optional() });
export const ReflectionBatchResponseSchema = z.object({ batch: ReflectionBatchSchema });

// GET /api/reflection/batches   → the batches this server process ran or runs, newest first
export const ReflectionBatchListResponseSchema = z.object({ batches: z.array(ReflectionBatchSchema) });

/** Reviewers read reflections (without items undecided since); curators reflect. */
export const reflectionApi = {
  list: endpoint('GET', '/api/reflection/proposals/:id', { params: IdParamSchema, response: ReflectionListResponseSchema }),
  reflect: endpoint('POST', '/api/reflection/proposals/:id', { params: IdParamSchema, response: ReflectResponseSchema, status: 201 }),
  batches: endpoint('GET', '/api/reflection/batches', { response: ReflectionBatchListResponseSchema }),
  startBatch: endpoint('POST', '/api/reflection/batch', { body: ReflectionBatchRequestSchema, response: ReflectionBatchResponseSchema, status: 202 }),
} as const;
