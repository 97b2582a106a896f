import { z } from 'zod';
import { DrawingStyleSchema } from '../chart-spec/drawing-style';
import { AnswerKindSchema, QaBenchmarkFieldsSchema, TableSourceSchema } from '../domain/benchmark-fields';
import { ChartTypeSchema, TypeEvidenceSchema, TypeSourceSchema } from '../domain/chart-types';
import { QaSourceSchema } from '../domain/qa';
import { DataTableSchema } from '../table/model';
import { IdParamSchema, PageQuerySchema } from './common';
import { endpoint } from './endpoint';

export const ChartSummarySchema = z.object({
  id: z.number().int(),
  split: z.string(),
  imgname: z.string(),
  title: z.string().nullable(),
  chart_type: ChartTypeSchema,
  type_source: TypeSourceSchema,
  /** What beyond the table decided an inferred type: its questions' words or a vision model; null otherwise. */
  type_evidence: TypeEvidenceSchema.nullable(),
  /**
   * False for an inferred type nothing but the table's shape decided, on a chart with an image it
   * may contradict: curators triage these, and a run may leave them out (`confirmed_types_only`).
   */
  type_confirmed: z.boolean(),
  has_image: z.boolean(),
  rows: z.number().int(),
  series: z.number().int(),
  qa_count: z.number().int(),
  /** Where the table came from; null: the chart has no table (image only, from a benchmark import). */
  table_source: TableSourceSchema.nullable(),
  /** A person (or a source that publishes tables, like ChartQA) vouches for the table. */
  table_confirmed: z.boolean(),
  /** The benchmark names an image that was not imported: nothing to show or evaluate on. */
  image_missing: z.boolean(),
});
export type ChartSummary = z.infer<typeof ChartSummarySchema>;

export const FactualQaSchema = z.object({
  id: z.number().int(),
  chart_id: z.number().int(),
  query: z.string(),
  label: z.string(),
  source: QaSourceSchema,
});
export type FactualQa = z.infer<typeof FactualQaSchema>;

export const ChartDetailSchema = ChartSummarySchema.extend({
  /** Null for a chart known only by its image. */
  data_table: DataTableSchema.nullable(),
  /** The annotation's colours and series order for drawing the table; null when it gives none. `has_image: false` means the chart shown is drawn. */
  drawing_style: DrawingStyleSchema.nullable(),
  source_file: z.string(),
  imported_at: z.string(),
  updated_at: z.string(),
});
export type ChartDetail = z.infer<typeof ChartDetailSchema>;

// GET /api/charts
export const ChartListQuerySchema = PageQuerySchema.extend({
  q: z.string().trim().max(200).optional(),
  split: z.string().max(100).optional(),
  chart_type: ChartTypeSchema.optional(),
});
export type ChartListQuery = z.infer<typeof ChartListQuerySchema>;
export const ChartListResponseSchema = z.object({
  charts: z.array(ChartSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type ChartListResponse = z.infer<typeof ChartListResponseSchema>;

// GET /api/charts/facets
export const ChartFacetsResponseSchema = z.object({
  splits: z.array(z.object({ split: z.string(), count: z.number().int() })),
  chart_types: z.array(z.object({ chart_type: ChartTypeSchema, count: z.number().int() })),
});
export type ChartFacetsResponse = z.infer<typeof ChartFacetsResponseSchema>;

// GET /api/charts/:id
/** A chart's question as the chart page lists it: with its answer kind, group and the benchmark's own fields. */
export const ChartQuestionSchema = FactualQaSchema.extend({
  answer_kind: AnswerKindSchema,
  /** The chart group a MultiChartQA question spans (it is listed on the group's first chart). */
  group_id: z.number().int().nullable(),
  /** As published (task, type, judgement pair entries, template id …); null for ChartQA. */
  benchmark_fields: QaBenchmarkFieldsSchema.nullable(),
});
export type ChartQuestion = z.infer<typeof ChartQuestionSchema>;

export const ChartDetailResponseSchema = z.object({
  chart: ChartDetailSchema,
  qas: z.array(ChartQuestionSchema),
});
export type ChartDetailResponse = z.infer<typeof ChartDetailResponseSchema>;

// PATCH /api/charts/:id
export const UpdateChartRequestSchema = z.object({ chart_type: ChartTypeSchema });
export type UpdateChartRequest = z.infer<typeof UpdateChartRequestSchema>;
export const UpdateChartResponseSchema = z.object({ chart: ChartSummarySchema });

// GET /api/charts/:id/image  → image/png (the chart's PNG, or one rendered from its table)

export const chartsApi = {
  list: endpoint('GET', '/api/charts', { query: ChartListQuerySchema, response: ChartListResponseSchema }),
  facets: endpoint('GET', '/api/charts/facets', { response: ChartFacetsResponseSchema }),
  get: endpoint('GET', '/api/charts/:id', { params: IdParamSchema, response: ChartDetailResponseSchema }),
  /** Curator. */
  update: endpoint('PATCH', '/api/charts/:id', { params: IdParamSchema, body: UpdateChartRequestSchema, response: UpdateChartResponseSchema }),
  /** image/png with an ETag (304 when it matches If-None-Match); `X-Chart-Image: original | rendered`. */
  image: endpoint('GET', '/api/charts/:id/image', { params: IdParamSchema, response: 'file' }),
} as const;
