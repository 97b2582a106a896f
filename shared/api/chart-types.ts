import { z } from 'zod';
import { RunStatusSchema } from '../domain/generation';
import { ChartSummarySchema } from './charts';
import { IdParamSchema } from './common';
import { endpoint } from './endpoint';

/**
 * Chart types for real images (issue 32 point 6): the charts whose inferred type nothing beyond
 * the table's shape decided — neither their questions' words nor a vision model — are
 * unconfirmed; curators triage them by keyboard, and a vision model can be asked for the types
 * of a split's unconfirmed charts as a durable job. A curator's decision is the existing
 * `PATCH /api/charts/:id` (`chartsApi.update`); this area adds the triage list, undo and the jobs.
 */

/** How many unconfirmed charts one triage fetch returns (the page refetches as they are decided). */
export const TRIAGE_BATCH = 50;

// GET /api/chart-types/triage?split=
export const TriageQuerySchema = z.object({ split: z.string().min(1).max(100).optional() });

export const TriageChartSchema = ChartSummarySchema.pick({ id: true, split: true, imgname: true, title: true, chart_type: true, rows: true, series: true, qa_count: true }).extend({
  /** Why the vision model left it undecided, from its latest job over the chart ("invalid: …"); null when none failed on it. */
  vision_failure: z.string().nullable(),
});
export type TriageChart = z.infer<typeof TriageChartSchema>;

/** Charts with an image in the triage's scope, by how their type stands. */
export const TypeStateCountsSchema = z.object({
  unconfirmed: z.number().int(),
  annotation: z.number().int(),
  questions: z.number().int(),
  vision: z.number().int(),
  curator: z.number().int(),
});
export type TypeStateCounts = z.infer<typeof TypeStateCountsSchema>;

export const TriageResponseSchema = z.object({
  /** Unconfirmed charts with an image, lowest id first, at most TRIAGE_BATCH. */
  charts: z.array(TriageChartSchema),
  counts: TypeStateCountsSchema,
});
export type TriageResponse = z.infer<typeof TriageResponseSchema>;

// POST /api/chart-types/:id/undo   (curator) → the chart as it was before its latest type decision
export const UndoTypeResponseSchema = z.object({ chart: ChartSummarySchema });

/** Which charts a vision job asks about: the unconfirmed charts of a split (left out: every split). */
export const ChartTypeJobScopeSchema = z.object({ split: z.string().min(1).max(100).optional() });
export type ChartTypeJobScope = z.infer<typeof ChartTypeJobScopeSchema>;

// GET /api/chart-type-jobs/plan?split=
export const ChartTypeJobPlanSchema = z.object({
  charts: z.number().int(),
  /** The vision model asked (the `extraction_model` setting); null without an endpoint. */
  model: z.string().nullable(),
  /** Why no model can be asked, when so (no endpoint). */
  unavailable: z.string().nullable(),
});
export type ChartTypeJobPlan = z.infer<typeof ChartTypeJobPlanSchema>;

export const ChartTypeFailureSchema = z.object({ chart_id: z.number().int(), chart: z.string(), kind: z.string(), reason: z.string() });
export type ChartTypeFailure = z.infer<typeof ChartTypeFailureSchema>;

/** How many failed charts a job lists. */
export const CHART_TYPE_FAILURES_SHOWN = 100;

/** A durable vision job over unconfirmed charts: its progress and what its calls used (`chart_type_job.progressed` pushes it whole). */
export const ChartTypeJobSchema = z.object({
  id: z.number().int(),
  split: z.string().nullable(),
  model: z.string(),
  status: RunStatusSchema,
  tasks_total: z.number().int(),
  tasks_done: z.number().int(),
  tasks_failed: z.number().int(),
  attempts: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cost: z.number(),
  /** False when a call's model was not in the price table: `cost` is then a lower bound. */
  priced: z.boolean(),
  error: z.string().nullable(),
  /** Failed charts by name with the reason (the first CHART_TYPE_FAILURES_SHOWN); they stay unconfirmed. */
  failures: z.array(ChartTypeFailureSchema),
  created_by: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type ChartTypeJob = z.infer<typeof ChartTypeJobSchema>;

export const ChartTypeJobResponseSchema = z.object({ job: ChartTypeJobSchema });
export const ChartTypeJobListResponseSchema = z.object({ jobs: z.array(ChartTypeJobSchema) });

export const chartTypesApi = {
  /** Curator: the unconfirmed charts to triage, and the counts by type state. */
  triage: endpoint('GET', '/api/chart-types/triage', { query: TriageQuerySchema, response: TriageResponseSchema }),
  /** Curator: puts back the chart's type as it was before its latest type decision, if nothing changed it since. */
  undo: endpoint('POST', '/api/chart-types/:id/undo', { params: IdParamSchema, response: UndoTypeResponseSchema }),
} as const;

/** Vision jobs over unconfirmed charts: curators plan, start and cancel them; everyone sees their progress. */
export const chartTypeJobsApi = {
  plan: endpoint('GET', '/api/chart-type-jobs/plan', { query: ChartTypeJobScopeSchema, response: ChartTypeJobPlanSchema }),
  list: endpoint('GET', '/api/chart-type-jobs', { response: ChartTypeJobListResponseSchema }),
  create: endpoint('POST', '/api/chart-type-jobs', { body: ChartTypeJobScopeSchema, response: ChartTypeJobResponseSchema, status: 201 }),
  cancel: endpoint('POST', '/api/chart-type-jobs/:id/cancel', { params: IdParamSchema, response: ChartTypeJobResponseSchema }),
} as const;

