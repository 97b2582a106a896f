import { z } from 'zod';
import { ChartTypeSchema } from '../domain/chart-types';
import { EngineSchema, RunStageSchema, RunStatusSchema } from '../domain/generation';
import { BatchProgressSchema } from './batch-progress';
import { IdParamSchema, PageQuerySchema } from './common';
import { endpoint } from './endpoint';

/**
 * How Stage 2 picks its factual QAs: `stratified` spreads them over the data (round-robin over
 * chart types, within a type over charts, seeded by the run id); `id` takes the lowest ids.
 */
export const QA_ORDERS = ['stratified', 'id'] as const;
export const QaOrderSchema = z.enum(QA_ORDERS);
export type QaOrder = z.infer<typeof QaOrderSchema>;

/** What a curator chooses when starting a generation run. */
export const RunConfigSchema = z.object({
  engine: EngineSchema,
  /** Model name; the offline engine always records `offline-rules`. Default: settings.generation_model. */
  model: z.string().trim().min(1).max(200).optional(),
  stage: RunStageSchema.default('both'),
  chart_type: ChartTypeSchema.optional(),
  split: z.string().max(100).optional(),
  /** Stage 2: how many factual QAs to write items for. */
  items: z.number().int().min(0).max(100_000).default(20),
  /** Only QAs that have no item yet. */
  only_new_qas: z.boolean().default(true),
  /**
   * Only QAs whose chart type is confirmed (a chart summary's `type_confirmed`; for a question
   * over a group, every member's): a chart whose image may contradict its inferred type gets no
   * proposals of a type it may not be.
   */
  confirmed_types_only: z.boolean().default(false),
  /** Stage 2: which QAs come first (see QA_ORDERS). */
  order: QaOrderSchema.default('stratified'),
  /** Stage 1: proposal calls per chart type. */
  proposal_batches: z.number().int().min(0).max(100).default(1),
  temperature: z.number().min(0).max(2).optional(),
  concurrency: z.number().int().min(1).max(32).default(4),
  /** Prefer proposals whose operation has the fewest accepted items (coverage gaps). */
  weight_to_gaps: z.boolean().default(false),
  /** Stop cleanly when either is reached (null = no cap). */
  budget_tokens: z.number().int().positive().nullable().default(null),
  budget_cost: z.number().positive().nullable().default(null),
  /**
   * Send each stage's model requests as one OpenAI Batch API batch (half price, answered within
   * 24 h) instead of call by call: the openai engine only. A budget is checked before a stage's
   * batch is sent, not inside it.
   */
  batch: z.boolean().default(false),
});
export type RunConfig = z.infer<typeof RunConfigSchema>;
export type RunConfigInput = z.input<typeof RunConfigSchema>;

export const RunSchema = z.object({
  id: z.number().int(),
  engine: EngineSchema,
  model: z.string(),
  stage: RunStageSchema,
  config: RunConfigSchema,
  status: RunStatusSchema,
  pool_round: z.number().int(),
  /** Tasks planned so far: it grows while the run plans (Stage 2's tasks are planned once Stage 1 ends). */
  tasks_total: z.number().int(),
  /** Every task is planned, so `tasks_total` will not grow (shared/generation/run-progress.ts). */
  plan_complete: z.boolean(),
  tasks_done: z.number().int(),
  tasks_failed: z.number().int(),
  proposals_created: z.number().int(),
  items_created: z.number().int(),
  items_failed: z.number().int(),
  /**
   * Stage 2 tasks that ended without an item and without failing ("no item possible"): the model,
   * offered a list of proposals, declined (none can change the answer), the server found no
   * proposal that could and sent no request, or the offline rules found no item for the question.
   * Never retried; in tasks_done, not in items_failed or tasks_failed.
   */
  items_declined: z.number().int(),
  llm_calls: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  /** Of `prompt_tokens`, those the endpoint served from its prompt cache (priced at the cached input price where the price table gives one). */
  cached_tokens: z.number().int(),
  cost: z.number(),
  stop_reason: z.string().nullable(),
  /** A batch run's latest batch (one per stage), as last polled; null for a run called call by call or before its first batch. */
  batch_progress: BatchProgressSchema.nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type Run = z.infer<typeof RunSchema>;

/** `hqa generate --json` output: the run's id, its counters and why it stopped (null when it ran to its end). */
export const GenerateReportSchema = z
  .object({ run_id: z.number().int() })
  .extend(
    RunSchema.pick({
      status: true,
      stop_reason: true,
      proposals_created: true,
      items_created: true,
      items_failed: true,
      items_declined: true,
      llm_calls: true,
      prompt_tokens: true,
      completion_tokens: true,
      cached_tokens: true,
      cost: true,
    }).shape,
  );
export type GenerateReport = z.infer<typeof GenerateReportSchema>;

export const RunErrorSchema = z.object({
  task_id: z.number().int(),
  kind: z.enum(['proposals', 'item']),
  qa_id: z.number().int().nullable(),
  chart_type: z.string().nullable(),
  error: z.string(),
  updated_at: z.string(),
});
export type RunError = z.infer<typeof RunErrorSchema>;

/**
 * An expected refusal: a task that ended with nothing made and nothing failed — "no item possible"
 * (Stage 1: no proposal). `model` when the model declined the proposals listed, `server` when no
 * request was sent (no proposal can change the answer), `rules` when the offline engine's rules
 * found none.
 */
export const RunDeclineSchema = z.object({
  task_id: z.number().int(),
  kind: z.enum(['proposals', 'item']),
  qa_id: z.number().int().nullable(),
  chart_type: z.string().nullable(),
  declined_by: z.enum(['model', 'server', 'rules']),
  reason: z.string(),
  updated_at: z.string(),
});
export type RunDecline = z.infer<typeof RunDeclineSchema>;

// GET /api/runs
export const RunListQuerySchema = PageQuerySchema;
export const RunListResponseSchema = z.object({ runs: z.array(RunSchema), total: z.number().int() });

// POST /api/runs   (curator)
export const StartRunRequestSchema = RunConfigSchema;
export const RunResponseSchema = z.object({ run: RunSchema });

// GET /api/runs/:id   → the run, its errors (failed tasks) and its declines, apart
export const RunDetailResponseSchema = z.object({
  run: RunSchema,
  errors: z.array(RunErrorSchema),
  declines: z.array(RunDeclineSchema),
});

// POST /api/runs/:id/pause | /resume | /cancel   (curator) → RunResponseSchema

/** Reading runs is for reviewers; starting and steering them for curators. */
export const runsApi = {
  list: endpoint('GET', '/api/runs', { query: RunListQuerySchema, response: RunListResponseSchema }),
  get: endpoint('GET', '/api/runs/:id', { params: IdParamSchema, response: RunDetailResponseSchema }),
  create: endpoint('POST', '/api/runs', { body: StartRunRequestSchema, response: RunResponseSchema, status: 201 }),
  pause: endpoint('POST', '/api/runs/:id/pause', { params: IdParamSchema, response: RunResponseSchema }),
  resume: endpoint('POST', '/api/runs/:id/resume', { params: IdParamSchema, response: RunResponseSchema }),
  cancel: endpoint('POST', '/api/runs/:id/cancel', { params: IdParamSchema, response: RunResponseSchema }),
} as const;
