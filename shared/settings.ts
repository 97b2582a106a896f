import { z } from 'zod';
import { ConsensusRuleSchema } from './domain/review';
import { DEFAULT_REVIEW_GUIDELINES, ReviewGuidelinesSchema } from './review/guidelines';
import { DEFAULT_MAX_CHANGE_SHARE } from './table/change-magnitude';
import { safeRecord } from './domain/safe-record';

/** Price of a model per million tokens, for cost accounting and budget caps. */
export const ModelPriceSchema = z.object({
  input_per_mtok: z.number().nonnegative(),
  /**
   * Input tokens the endpoint served from its prompt cache (a repeated prompt prefix): OpenAI
   * bills them at a lower price. Left out, they cost `input_per_mtok` like any other input.
   */
  cached_input_per_mtok: z.number().nonnegative().optional(),
  output_per_mtok: z.number().nonnegative(),
});
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/**
 * Vision requests: what `detail` asks of the endpoint (OpenAI: `low` reads a 512-px copy for a
 * flat 85 tokens, `high` reads 512-px tiles of the full image; `auto` lets it choose).
 */
export const ImageDetailSchema = z.enum(['auto', 'low', 'high']);
export type ImageDetail = z.infer<typeof ImageDetailSchema>;

/**
 * Longest side of an image sent to a vision model by default: Anthropic's vision docs scale any
 * image whose long edge passes 1568 px down to it, and it is within what OpenAI's high detail
 * reads (2048 fit, 768 short side) and Qwen2-VL's recommended 1280×28² pixels take from a 3:2
 * chart; a 30-row chart's labels stay legible at it.
 */
export const DEFAULT_VISION_MAX_SIDE = 1568;

/** Uploads' limits by default: ChartQA's train split (18,317 charts, three files each, PNGs of 30–90 KB in the real sample) fits under each. */
export const DEFAULT_UPLOAD_MAX_UNPACKED_MB = 2048;
export const DEFAULT_UPLOAD_MAX_RATIO = 50;
export const DEFAULT_UPLOAD_MAX_ENTRIES = 100_000;

/**
 * Admin settings, stored in the `settings` table; every key has a default so a new
 * workbench works without any configuration.
 */
export const SettingsSchema = z.object({
  generation_model: z.string().min(1).default('gpt-4o-mini'),
  /** The LLM judge that grades free answers (CharXiv's metric); CharXiv's paper graded with GPT-4o. */
  judge_model: z.string().min(1).default('gpt-4o'),
  /** Reads a chart's data table from its image (`hqa extract-tables`, the chart page's Extract button), at temperature 0. */
  extraction_model: z.string().min(1).default('gpt-4o'),
  /**
   * Vision requests (extraction, chart type, evaluation): an image whose longest side passes this
   * is scaled down to it before it is sent (never up); an endpoint bills and reads the pixels it
   * is sent, and 3400×2400 OWID charts cost ~10,000 tokens each on a Qwen2-VL-style model.
   */
  vision_max_side: z.number().int().min(256).max(8192).default(DEFAULT_VISION_MAX_SIDE),
  /** The `detail` a table extraction's image is sent at: `high` so printed labels can be read. */
  vision_detail: ImageDetailSchema.default('high'),
  temperature: z.number().min(0).max(2).default(0.7),
  /** Stage 1: pool proposals shown to the model as examples (Self-Instruct samples 8). */
  seed_sample_count: z.number().int().min(1).max(20).default(8),
  /** Of those, at most this many machine-made ones (Self-Instruct: 6 human + 2 machine). */
  machine_sample_count: z.number().int().min(0).max(20).default(2),
  /** Stage 1 duplicate filter: ROUGE-L F at or above this against any pool proposal. */
  rouge_threshold: z.number().min(0).max(1).default(0.7),
  proposals_per_call: z.number().int().min(1).max(20).default(5),
  request_timeout_ms: z.number().int().min(1000).max(600_000).default(60_000),
  max_retries: z.number().int().min(0).max(10).default(4),
  /**
   * Generation: a run pauses itself, with its stop reason, after this many tasks in a row whose
   * model call failed in transport after its retries (no connection, DNS, timeouts, 5xx, 429:
   * server/generation/transport-streak.ts); a task the endpoint answered resets the count.
   */
  pause_after_transport_failures: z.number().int().min(1).max(100).default(5),
  /** Review: how many reviews decide an item, and how they decide it. */
  reviews_per_item: z.number().int().min(1).max(9).default(1),
  consensus_rule: ConsensusRuleSchema.default('majority'),
  /**
   * Calibration: the chance that a claim serves a gold item (an accepted item a curator marked)
   * the reviewer has not reviewed; their review is compared with the gold decision, not counted.
   */
  gold_share: z.number().min(0).max(1).default(0.1),
  /** Stats flags a reviewer to curators whose agreement with gold on any criterion is under this. */
  gold_agreement_threshold: z.number().min(0).max(1).default(0.8),
  /** Review: what each criterion asks, in Markdown, shown to reviewers on the review screen (`g`). */
  review_guidelines: ReviewGuidelinesSchema.default(DEFAULT_REVIEW_GUIDELINES),
  /** How long a claimed item stays the reviewer's without a renewal. */
  lease_seconds: z.number().int().min(30).max(3600).default(300),
  /**
   * Sessions: one unused this long ends (a workday, so a reviewer's overnight tab does not stay
   * signed in). A session's absolute life (7 days) ends it whatever this says.
   */
  session_idle_minutes: z.number().int().min(5).max(7 * 24 * 60).default(12 * 60),
  /**
   * Generation: the share of items kept on purpose although their assumption leaves the answer
   * unchanged (controls, marked in the export). Others whose answer does not change are not stored.
   */
  unchanged_control_share: z.number().min(0).max(1).default(0),
  /**
   * Generation: a generated item with an error-severity finding (a whole broken, the answer given
   * away or decided by the assumption alone, a program reading what the question does not ask,
   * an implausible change…) is not stored, so reviewers never see it. On: stored, its findings
   * shown as flags. People's items are always stored.
   */
  keep_items_with_errors: z.boolean().default(false),
  /**
   * Checks: an edit may cut a value by at most this share of itself, or multiply it by at most
   * 1 / (1 − share) — a share may take more points while they stay within (1 − share) of its
   * column's range (shared/table/change-magnitude.ts). 0.5: halved to doubled.
   */
  max_change_share: z.number().min(0.1).max(0.99).default(DEFAULT_MAX_CHANGE_SHARE),
  /** Reflection: revise a proposal automatically once this many of its items were decided since the last revision. */
  auto_reflect: z.boolean().default(true),
  reflection_min_decisions: z.number().int().min(1).max(1000).default(3),
  /** Retire a proposal automatically when at least this many of its items were decided and its pass rate is at most the limit. */
  retire_min_decisions: z.number().int().min(1).max(1000).default(10),
  retire_max_pass_rate: z.number().min(0).max(1).default(0.2),
  /**
   * Batch runs (`--batch`, the "batch" box): what a request answered through the Batch API
   * costs, as a share of the price table's price. OpenAI bills batches at 50%.
   */
  batch_discount: z.number().min(0).max(1).default(0.5),
  /**
   * Browser uploads (a split as a `.zip`): the most its entries may unpack to in all, in MiB.
   * An upload whose entries declare more is refused before anything is unpacked, and the
   * unpacking stops where the bytes written pass it. The real limit is lower when the temporary
   * folder's disk has less than twice this free (server/import/upload-limits.ts).
   */
  upload_max_unpacked_mb: z.number().int().min(1).max(1024 * 1024).default(DEFAULT_UPLOAD_MAX_UNPACKED_MB),
  /**
   * Uploads: the most an upload may unpack to as a multiple of the zip's own size. The real
   * samples unpack to 1–17 times theirs (PNG charts do not compress; ChartBench's JSON lines
   * compress 17 to 1); a zip bomb unpacks to a thousand.
   */
  upload_max_ratio: z.number().min(1).max(1000).default(DEFAULT_UPLOAD_MAX_RATIO),
  /** Uploads: the most files and folders a zip may hold (a ChartQA split has three files per chart). */
  upload_max_entries: z.number().int().min(1).max(1_000_000).default(DEFAULT_UPLOAD_MAX_ENTRIES),
  price_table: safeRecord(z.string(), ModelPriceSchema).default({
    'gpt-4o-mini': { input_per_mtok: 0.15, cached_input_per_mtok: 0.075, output_per_mtok: 0.6 },
    'gpt-4o': { input_per_mtok: 2.5, cached_input_per_mtok: 1.25, output_per_mtok: 10 },
    'gpt-4.1-mini': { input_per_mtok: 0.4, cached_input_per_mtok: 0.1, output_per_mtok: 1.6 },
  }),
});
export type Settings = z.infer<typeof SettingsSchema>;
