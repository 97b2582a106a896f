import { z } from 'zod';
import { ChartTypeSchema } from '../domain/chart-types';
import { QuestionRelationSchema } from '../domain/generation';
import { QaSourceSchema } from '../domain/qa';
import { AnswerTypeSchema } from '../table/answers';

/**
 * The Chart-HQA export, version 1: the contract with the people who use the benchmark. The
 * JSON Schema published beside it (`chart-hqa.v1.schema.json`) is generated from this file.
 */
export const CHART_HQA_VERSION = '1';

export const ExportStatsSchema = z.object({
  questions: z.number().int(),
  proposals: z.number().int(),
  /** Distinct charts the items are over, every chart of a group item's group counted. */
  charts: z.number().int(),
  answer_types: z.object({ integer: z.number().int(), decimal: z.number().int(), boolean: z.number().int(), text: z.number().int() }),
  avg_chars: z.object({ question: z.number(), assumption: z.number(), answer: z.number() }),
  /** Accepted over decided (accepted + rejected) items, in percent; null before any decision. */
  pass_rate: z.number().nullable(),
  /** Items whose `question_relation` is `same`: the paper's task, the ones the decline and bias rates count. */
  same_question: z.number().int(),
  /** Items marked `control`. */
  controls: z.number().int(),
  /**
   * Items verified on a table no curator has confirmed (`verification.table` is `unconfirmed`):
   * extracted from the chart's image by a vision model; reviewers judged them from the image.
   */
  table_unconfirmed: z.number().int(),
});
export type ExportStats = z.infer<typeof ExportStatsSchema>;

export const ExportReviewSummarySchema = z.object({
  reviews: z.number().int(),
  accepts: z.number().int(),
  rejects: z.number().int(),
  adjudicated: z.boolean(),
  /** The answer or question differs from the model's: a reviewer or curator corrected it. */
  corrected: z.boolean(),
});

export const ExportItemSchema = z.object({
  id: z.string(),
  /** The chart's image file; `split/name` when two splits in the export share a file name. */
  imgname: z.string(),
  chart_type: ChartTypeSchema,
  assumption: z.string(),
  /** The full hypothetical question, assumption included. */
  question: z.string(),
  answer: z.string(),
  answer_type: AnswerTypeSchema,
  affects_answer: z.boolean(),
  /**
   * `same`: the question is `original.query` under the assumption, changed only as a hypothetical's
   * grammar needs ("is" → "would be"); `different`: another question, a different task, which
   * evaluation leaves out of the decline and bias rates. An item the workbench never classified
   * (made before it could) exports as `different`: it is counted as the paper's task only once
   * shown to be one.
   */
  question_relation: QuestionRelationSchema,
  /** A control question: kept on purpose although the assumption leaves the factual answer unchanged. */
  control: z.boolean(),
  original: z.object({ query: z.string(), label: z.string(), source: QaSourceSchema }),
  proposal: z.object({ id: z.number().int(), text: z.string() }).nullable(),
  review: ExportReviewSummarySchema,
  /**
   * What the verifier computed over. `table`: `confirmed` — the chart's data table was imported
   * from a source that publishes tables, or confirmed by a curator; `unconfirmed` — it was
   * extracted from the image by a vision model and nobody vouched for it: the answer was checked
   * against a table that may misread the chart, and reviewers judged the item from the image.
   * An item over a chart group is `confirmed` only when every chart's table is.
   */
  verification: z.object({ table: z.enum(['confirmed', 'unconfirmed']) }),
});
export type ExportItem = z.infer<typeof ExportItemSchema>;

/**
 * An item over a chart group (MultiChartQA's 2-4 charts, or a curator's group): the question
 * relates the charts and the assumption edits one of them. In place of `imgname` it carries
 * `images`, every chart's image file in group order (named as `imgname` names one: `split/name`
 * when two exported splits share a file name), which a model is shown in that order ("Chart 1",
 * "Chart 2", …), and `edited_chart`. `chart_type` is chart 1's, the chart the item is stored on. A consumer tells the two shapes apart by which of `imgname` and `images` an item has.
 */
export const GroupExportItemSchema = ExportItemSchema.omit({ imgname: true }).extend({
  images: z.array(z.string()).min(2).max(4),
  /** 1-based position in `images` of the chart the assumption edits; null when the item's assumption has no machine-readable edit. */
  edited_chart: z.number().int().min(1).max(4).nullable(),
});
export type GroupExportItem = z.infer<typeof GroupExportItemSchema>;

/** Any exported item: over one chart (`imgname`) or over a chart group (`images`). */
export const ChartHqaItemSchema = z.union([ExportItemSchema, GroupExportItemSchema]);
export type ChartHqaItem = z.infer<typeof ChartHqaItemSchema>;

/** The item's image files in the order a model is shown them: one for a single-chart item. */
export const itemImages = (item: Pick<ExportItem, 'imgname'> | Pick<GroupExportItem, 'images'>): string[] => ('images' in item ? item.images : [item.imgname]);

/** `--full`: provenance for audits. */
export const ExportProvenanceSchema = z.object({
  origin: z.enum(['llm', 'offline', 'human']),
  run_id: z.number().int().nullable(),
  model: z.string().nullable(),
  split: z.string(),
  table_hash: z.string(),
  model_answer: z.string(),
  model_question: z.string(),
  edit: z.unknown().nullable(),
  program: z.string(),
  verifier: z.unknown(),
  reviews: z.array(
    z.object({
      reviewer_id: z.number().int(),
      decision: z.enum(['accept', 'reject']),
      criteria: z.object({
        rationality: z.object({ pass: z.boolean(), note: z.string() }),
        correctness: z.object({ pass: z.boolean(), note: z.string() }),
        layout: z.object({ pass: z.boolean(), note: z.string() }),
      }),
      feedback: z.string(),
      corrected_answer: z.string().nullable(),
      corrected_question: z.string().nullable(),
      complexity: z.number().int().nullable(),
      created_at: z.string(),
    }),
  ),
});

export const ExportItemFullSchema = ExportItemSchema.extend({ provenance: ExportProvenanceSchema });
export type ExportItemFull = z.infer<typeof ExportItemFullSchema>;
export const GroupExportItemFullSchema = GroupExportItemSchema.extend({ provenance: ExportProvenanceSchema });
export type GroupExportItemFull = z.infer<typeof GroupExportItemFullSchema>;

export const ChartHqaExportV1Schema = z.object({
  name: z.string(),
  version: z.literal(CHART_HQA_VERSION),
  created_at: z.string(),
  stats: ExportStatsSchema,
  // Provenance-carrying shapes first: a plain shape would accept a full item and drop its provenance.
  items: z.array(z.union([ExportItemFullSchema, GroupExportItemFullSchema, ExportItemSchema, GroupExportItemSchema])),
});
export type ChartHqaExportV1 = z.infer<typeof ChartHqaExportV1Schema>;

/** The `chartqa` format: ChartQA's own question files, so its scripts run unchanged (one image per question: items over a chart group are left out, and counted). */
export const ChartQaExportSchema = z.array(z.object({ imgname: z.string(), query: z.string(), label: z.string() }));

/** `pairs`: ChartBench judgement pairs from the items with numeric answers (pairs-record.ts). */
export const EXPORT_FORMATS = ['chart-hqa', 'chartqa', 'jsonl', 'pairs'] as const;
export const ExportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

/** Stable public id of an item in every export. */
export const exportItemId = (itemId: number) => `chq-${String(itemId).padStart(6, '0')}`;

/** The workbench item id of an export id (`chq-000123` → 123); null for another shape. */
export function itemIdOfExportId(id: string): number | null {
  const match = /^chq-(\d+)$/.exec(id);
  return match ? Number(match[1]) : null;
}
