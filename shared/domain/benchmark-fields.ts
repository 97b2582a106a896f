import { z } from 'zod';

/**
 * The shapes the benchmark importers keep beside a chart or a factual question: each
 * benchmark's own fields as published, so scoring and export can read them back (parsed with
 * these schemas where they leave the database).
 */

/** How a question's answer is compared: decides scoring and what a hypothetical item may ask. */
export const ANSWER_KINDS = ['number', 'text', 'multiple_choice', 'multi_part', 'judgement_pair', 'free_text'] as const;
export const AnswerKindSchema = z.enum(ANSWER_KINDS);
export type AnswerKind = z.infer<typeof AnswerKindSchema>;

/** Where a chart's data table came from; null: the chart has none (image only). */
export const TABLE_SOURCES = ['imported', 'extracted', 'curator'] as const;
export const TableSourceSchema = z.enum(TABLE_SOURCES);
export type TableSource = z.infer<typeof TableSourceSchema>;

/** The benchmark formats `hqa import --format` reads. */
export const IMPORT_FORMATS = ['chartqa', 'multichartqa', 'chartbench', 'charxiv'] as const;
export const ImportFormatSchema = z.enum(IMPORT_FORMATS);
export type ImportFormat = z.infer<typeof ImportFormatSchema>;

export const CHART_GROUP_SOURCES = ['multichartqa', 'curator'] as const;
export const ChartGroupSourceSchema = z.enum(CHART_GROUP_SOURCES);

/** A chart group (2–4 charts a question spans) with its members in order. */
export const ChartGroupSchema = z.object({
  id: z.number().int(),
  split: z.string(),
  group_key: z.string(),
  name: z.string(),
  source: ChartGroupSourceSchema,
  chart_ids: z.array(z.number().int()).min(1).max(4),
});
export type ChartGroup = z.infer<typeof ChartGroupSchema>;

/** MultiChartQA record fields (`chart-path_and_question-answer_pair.json`), minus question and answer. */
export const MultiChartQaFieldsSchema = z.object({
  benchmark: z.literal('multichartqa'),
  id: z.string(),
  /** The paths as published (Windows-style in the early release). */
  image: z.array(z.string()),
  /** Early: Direct_Questions/Structure …; later: Comparative_Reasoning/Structure …; absent in newer groups. */
  task: z.string().nullable(),
  type: z.enum(['open-ended', 'multiple-choice']),
  context: z.unknown(),
  /** The early release's "The first chart is <image>. …" prefix was present (the query keeps it). */
  image_prefix: z.boolean(),
});

/** One ChartBench conversation entry: an assertion (or the NQA question) and its label. */
export const ChartBenchEntrySchema = z.object({ label: z.string(), query: z.string() });

/** A ChartBench record's fields: `type` as published and both judgement entries in order. */
export const ChartBenchFieldsSchema = z.object({
  benchmark: z.literal('chartbench'),
  id: z.number().int(),
  image: z.string(),
  type: z.object({ chart: z.string(), image: z.string(), task: z.string(), QA: z.string() }),
  conversation: z.array(ChartBenchEntrySchema).min(1).max(2),
});

/** "for the current plot" ([0, 0]), a grid cell [row, column], or a phrase ("the bottom subplot"). */
export const SubplotLocSchema = z.union([z.tuple([z.number().int(), z.number().int()]), z.string()]);

export const CharXivDescriptiveFieldsSchema = z.object({
  benchmark: z.literal('charxiv'),
  kind: z.literal('descriptive'),
  figure_id: z.number().int(),
  /** Index 0–3 of the figure's four questions (CharXiv's response key `<figure_id>_<i>`). */
  subq_idx: z.number().int().min(0).max(3),
  /** Template 1–19 (src/constants.py DESCRIPTIVE_RESP_INST). */
  qid: z.number().int().min(1).max(19),
  subplot_loc: SubplotLocSchema,
  num_subplots: z.number().int(),
});

export const CharXivReasoningFieldsSchema = z.object({
  benchmark: z.literal('charxiv'),
  kind: z.literal('reasoning'),
  figure_id: z.number().int(),
  /** 1 text-in-chart, 2 text-in-general, 3 number-in-chart, 4 number-in-general. */
  inst_category: z.number().int().min(1).max(4),
  qa_source: z.number().int(),
});

export const QaBenchmarkFieldsSchema = z.union([MultiChartQaFieldsSchema, ChartBenchFieldsSchema, CharXivDescriptiveFieldsSchema, CharXivReasoningFieldsSchema]);
export type QaBenchmarkFields = z.infer<typeof QaBenchmarkFieldsSchema>;
export type MultiChartQaFields = z.infer<typeof MultiChartQaFieldsSchema>;
export type ChartBenchFields = z.infer<typeof ChartBenchFieldsSchema>;
export type CharXivDescriptiveFields = z.infer<typeof CharXivDescriptiveFieldsSchema>;
export type CharXivReasoningFields = z.infer<typeof CharXivReasoningFieldsSchema>;

/** Chart-level fields: the benchmark's chart types and metadata as published. */
export const ChartBenchmarkFieldsSchema = z.discriminatedUnion('benchmark', [
  z.object({ benchmark: z.literal('multichartqa'), group: z.string(), position: z.number().int().min(1).max(4) }),
  z.object({ benchmark: z.literal('chartbench'), chart: z.string(), image: z.string() }),
  z.object({
    benchmark: z.literal('charxiv'),
    figure_id: z.number().int(),
    chart_types: z.array(z.string()).nullable(),
    /** image_metadata_*.json as published (category, year, caption, paper_id, title …). */
    metadata: z.record(z.string(), z.unknown()).nullable(),
  }),
]);
export type ChartBenchmarkFields = z.infer<typeof ChartBenchmarkFieldsSchema>;
