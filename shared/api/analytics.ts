import { z } from 'zod';
import { ChartTypeSchema } from '../domain/chart-types';
import { ProposalOriginSchema, ProposalStatusSchema } from '../domain/generation';
import { AnswerTypeSchema } from '../table/answers';
import { IdParamSchema } from './common';
import { endpoint } from './endpoint';

/**
 * Pool analytics, the human / machine / HAI comparison and the coverage map (issue 6, items
 * 3–5). Every pass rate is a percentage (0–100) of accepted among decided items (accepted or
 * rejected), null when none was decided, as in /api/review/stats. An operation is the
 * verb–object pair compromise reads from a proposal's text (server/analytics/operations.ts).
 */

const count = z.number().int().nonnegative();
const percent = z.number().min(0).max(100).nullable();

export const PassRateSchema = z.object({ decided: count, accepted: count, pass_rate: percent });
export type PassRate = z.infer<typeof PassRateSchema>;

export const OperationSchema = z.object({ verb: z.string(), noun: z.string() });
export type Operation = z.infer<typeof OperationSchema>;

// GET /api/analytics/pool   (reviewer)
export const PoolGrowthPointSchema = z.object({
  /** A UTC day (YYYY-MM-DD) on which at least one proposal entered the pool. */
  day: z.string(),
  origin: ProposalOriginSchema,
  /** Proposals of that origin created up to the end of the day (duplicates never enter the pool; retired ones did). */
  cumulative: count,
});
export const ProposalPassRateSchema = PassRateSchema.extend({
  proposal_id: z.number().int(),
  chart_type: ChartTypeSchema,
  text: z.string(),
  origin: ProposalOriginSchema,
  status: ProposalStatusSchema,
  round: z.number().int(),
  items: count,
});
export const OperationCountSchema = z.object({ chart_type: ChartTypeSchema, noun: z.string(), verb: z.string(), count: count });
export const DiversitySchema = z.object({
  /** Active and retired proposals considered. */
  proposals: count,
  /** Of those, proposals whose text names no operation compromise could read. */
  unparsed: count,
  distinct_operations: count,
});
export const PoolAnalyticsResponseSchema = z.object({
  /** For each such day, every origin's cumulative count, in day order. */
  growth: z.array(PoolGrowthPointSchema),
  pass_rate: z.object({
    overall: PassRateSchema,
    /** Proposals with at least one item, by id. */
    by_proposal: z.array(ProposalPassRateSchema),
    /** By the chart type of the item's chart. */
    by_chart_type: z.array(PassRateSchema.extend({ chart_type: ChartTypeSchema })),
    /** By the round of the item's proposal (items without a proposal are left out). */
    by_round: z.array(PassRateSchema.extend({ round: z.number().int() })),
  }),
  /** Figure 3's sunburst: active and retired proposals per chart type, noun (inner ring) and verb (outer ring). */
  operations: z.array(OperationCountSchema),
  diversity: z.object({
    overall: DiversitySchema,
    by_chart_type: z.array(DiversitySchema.extend({ chart_type: ChartTypeSchema })),
  }),
});
export type PoolAnalyticsResponse = z.infer<typeof PoolAnalyticsResponseSchema>;

// GET /api/analytics/lineage/:id   (reviewer; the id is a proposal's)
export const LineageNodeSchema = PassRateSchema.extend({
  id: z.number().int(),
  chart_type: ChartTypeSchema,
  text: z.string(),
  origin: ProposalOriginSchema,
  status: ProposalStatusSchema,
  round: z.number().int(),
  relation: z.enum(['ancestor', 'self', 'descendant']),
  /** Parents that are themselves in this lineage (a generated proposal's other sampled seeds are left out). */
  parent_ids: z.array(z.number().int()),
  operation: OperationSchema.nullable(),
});
export type LineageNode = z.infer<typeof LineageNodeSchema>;
export const LineageResponseSchema = z.object({
  proposal_id: z.number().int(),
  /** Nodes without a parent in the lineage. */
  root_ids: z.array(z.number().int()),
  /** Ancestors up to the roots, the proposal, and all its descendants, by id. */
  nodes: z.array(LineageNodeSchema),
});
export type LineageResponse = z.infer<typeof LineageResponseSchema>;

// GET /api/analytics/ablation?reviewer_hourly_rate=30   (curator)
export const AblationQuerySchema = z.object({
  reviewer_hourly_rate: z.coerce.number().nonnegative().max(10_000).default(30),
});
export type AblationQuery = z.infer<typeof AblationQuerySchema>;
export const ABLATION_GROUPS = ['human', 'machine', 'hai'] as const;
export const AblationGroupSchema = z.enum(ABLATION_GROUPS);
export type AblationGroup = z.infer<typeof AblationGroupSchema>;
export const AblationRowSchema = PassRateSchema.extend({
  items: count,
  /** Standing (not retracted) reviews of the group's items. */
  reviews: count,
  rationality_pass_rate: percent,
  layout_pass_rate: percent,
  mean_complexity: z.number().nullable(),
  /** Distinct verb–object pairs of the proposals used (an item without a proposal: its assumption). */
  operation_diversity: count,
  /** Σ over items of its run's LLM cost (from the call records) ÷ the run's items_created. */
  llm_cost: z.number().nonnegative(),
  /** Reflection calls that wrote the group's revised proposals (HAI only; 0 otherwise). */
  reflection_cost: z.number().nonnegative(),
  /** All review time on the group's items, retracted reviews included (the time was spent). */
  reviewer_hours: z.number().nonnegative(),
  reviewer_cost: z.number().nonnegative(),
  /** (llm_cost + reflection_cost + reviewer_cost) ÷ accepted; null with nothing accepted. */
  unit_cost: z.number().nonnegative().nullable(),
});
export type AblationRow = z.infer<typeof AblationRowSchema>;
export const AblationResponseSchema = z.object({
  reviewer_hourly_rate: z.number(),
  /**
   * human: hand-written items; machine: model/offline items from round-0 proposals that are
   * not revisions (no reflection yet); hai: model/offline items from revised proposals or
   * proposals of a later round (after reflection).
   */
  groups: z.array(AblationRowSchema.extend({ group: AblationGroupSchema })),
  /** The hai group split by the round of the item's proposal. */
  hai_by_round: z.array(AblationRowSchema.extend({ round: z.number().int() })),
});
export type AblationResponse = z.infer<typeof AblationResponseSchema>;

// GET /api/analytics/coverage?limit=20   (curator)
export const CoverageQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(20) });
export type CoverageQuery = z.infer<typeof CoverageQuerySchema>;
export const CoverageCellSchema = z.object({
  verb: z.string(),
  noun: z.string(),
  chart_type: ChartTypeSchema,
  answer_type: AnswerTypeSchema,
  affects_answer: z.boolean(),
  count: count,
});
export type CoverageCell = z.infer<typeof CoverageCellSchema>;
export const CoverageResponseSchema = z.object({
  /** Accepted items considered, and those whose operation could not be read (left out of the cells). */
  accepted_items: count,
  unparsed_items: count,
  /** Non-empty cells over accepted items, largest first. */
  cells: z.array(CoverageCellSchema),
  /**
   * The `limit` thinnest cells among the combinations the active pool can produce (its
   * operations per chart type × every answer type × affects or not): empty ones first, each
   * operation's thinnest cell before any operation's second, operations with the fewest
   * accepted items first. With the active proposals naming the operation, so generation can
   * be steered to them.
   */
  thinnest: z.array(CoverageCellSchema.extend({ proposal_ids: z.array(z.number().int()) })),
});
export type CoverageResponse = z.infer<typeof CoverageResponseSchema>;

export const analyticsApi = {
  pool: endpoint('GET', '/api/analytics/pool', { response: PoolAnalyticsResponseSchema }),
  lineage: endpoint('GET', '/api/analytics/lineage/:id', { params: IdParamSchema, response: LineageResponseSchema }),
  /** Curator. */
  ablation: endpoint('GET', '/api/analytics/ablation', { query: AblationQuerySchema, response: AblationResponseSchema }),
  /** Curator. */
  coverage: endpoint('GET', '/api/analytics/coverage', { query: CoverageQuerySchema, response: CoverageResponseSchema }),
} as const;
