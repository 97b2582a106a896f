import { z } from 'zod';
import { ChartTypeSchema } from '../domain/chart-types';
import { AnswerTypeSchema } from '../table/answers';
import type { Score } from '../eval/metrics';
import { BatchProgressSchema } from './batch-progress';
import { IdParamSchema, PageQuerySchema } from './common';
import { endpoint } from './endpoint';
import { FigureCheckSchema, Table3RowSchema, Table4RowSchema } from '../eval/paper-tables';
import { RuleAccuracySchema } from '../eval/rule-accuracy';
import { ScoreFileFormatSchema, ScoreReportSchema } from '../eval/score-report';
import { DEFAULT_SCORING_RULE, ScoringRuleSchema } from '../eval/scoring-rules';
import { CONDITION_GAPS, EVAL_CONDITIONS } from '../eval/conditions';

/**
 * Model evaluation runs stored in the workbench: a model asked every accepted item (or its
 * factual question, or without the chart), or predictions made elsewhere (`hqa eval`) and
 * imported. Each run keeps a snapshot of what it was scored against, so a later review does not
 * change a published figure.
 */

/**
 * What the model was asked (a run's condition; `shared/eval/conditions.ts` says what each sends
 * and scores against): `hqa` the hypothetical questions; `original` the factual questions they
 * came from (ChartQA's baseline, for the decline rate); `no_image` the hypothetical questions
 * without the chart (the output-bias control); `counterfactual_image` the factual question on the
 * edited table drawn; `drawn_original` the factual question on the original table drawn the same
 * way (the style control). A run's `mode` is its first condition.
 */
export const EVAL_MODES = EVAL_CONDITIONS;
export const EvalModeSchema = z.enum(EVAL_MODES);
export type EvalMode = z.infer<typeof EvalModeSchema>;

/**
 * `openai`: an OpenAI-compatible vision model (OPENAI_BASE_URL). `factual-baseline`: answers
 * every question with the item's original factual label — a "model" that ignores the assumption,
 * the reference point for the bias rate; needs no key. `imported`: predictions uploaded.
 */
export const EVAL_ENGINES = ['openai', 'factual-baseline', 'imported'] as const;
export const EvalEngineSchema = z.enum(EVAL_ENGINES);
export type EvalEngine = z.infer<typeof EvalEngineSchema>;
/** The model name the factual baseline records. */
export const FACTUAL_BASELINE_MODEL = 'factual-baseline';

/**
 * `paused`: stopped with a reason in `error`, not finished: the database could not be written
 * (`storage_unavailable: <SQLite's words>`, as generation runs' `stop_reason` says it). Its
 * questions not yet answered wait for a resume; a server start does not resume it.
 */
export const EVAL_RUN_STATUSES = ['queued', 'running', 'paused', 'done', 'cancelled', 'failed'] as const;
export const EvalRunStatusSchema = z.enum(EVAL_RUN_STATUSES);
export type EvalRunStatus = z.infer<typeof EvalRunStatusSchema>;
/** A run in one of these has ended: its score is frozen. A paused run has not. */
export const FINISHED_EVAL_RUN_STATUSES: readonly EvalRunStatus[] = ['done', 'cancelled', 'failed'];

const TypeCountsSchema = z.object({ items: z.number().int(), correct: z.number().int() });
const nullablePercent = z.number().nullable();

/** `shared/eval/metrics.ts`'s `Score` as a wire schema (a compile-time check below keeps them equal). */
export const EvalScoreSchema = z.object({
  relaxed_accuracy: nullablePercent,
  by_answer_type: z.object({ integer: nullablePercent, decimal: nullablePercent, boolean: nullablePercent, text: nullablePercent }),
  answer_type_variance: z.number().nullable(),
  bias_rate: nullablePercent,
  /** Questions left out of the decline and bias rates: not the factual question under an assumption. */
  left_out_different: z.number().int(),
  counts: z.object({
    items: z.number().int(),
    predicted: z.number().int(),
    missing: z.number().int(),
    correct: z.number().int(),
    by_answer_type: z.object({ integer: TypeCountsSchema, decimal: TypeCountsSchema, boolean: TypeCountsSchema, text: TypeCountsSchema }),
    /** `same` questions whose assumption changes the answer (the bias rate's denominator). */
    affects_answer: z.number().int(),
    biased: z.number().int(),
    /** Questions that are the factual question under an assumption, and of those answered right (the decline rate's). */
    same_question: z.number().int(),
    same_correct: z.number().int(),
    unknown_predictions: z.number().int(),
  }),
});
export type EvalScore = z.infer<typeof EvalScoreSchema>;
// Both directions: the wire schema and the metric's result type cannot drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const SCORE_SCHEMA_MATCHES: Same<EvalScore, Score> = true;

/** A batch run's batch, as generation runs show theirs too (`batch-progress.ts`). */
export { BATCH_PROGRESS_STATES as EVAL_BATCH_STATES, BatchProgressSchema as EvalBatchProgressSchema, type BatchProgress as EvalBatchProgress } from './batch-progress';

/** One condition of a run: its questions and its score (a skipped question is in neither the score nor `items_total`). */
export const EvalConditionScoreSchema = z.object({
  condition: EvalModeSchema,
  items_total: z.number().int(),
  /** Questions this condition could not ask (an edit that cannot be drawn), each with its reason in the results. */
  items_skipped: z.number().int(),
  score: EvalScoreSchema,
});
export type EvalConditionScore = z.infer<typeof EvalConditionScoreSchema>;

/** A gap between two of a run's conditions (`shared/eval/conditions.ts`), in percentage points. */
export const EvalGapSchema = z.object({
  id: z.enum(CONDITION_GAPS.map((gap) => gap.id) as [(typeof CONDITION_GAPS)[number]['id'], ...(typeof CONDITION_GAPS)[number]['id'][]]),
  label: z.string(),
  minuend: EvalModeSchema,
  subtrahend: EvalModeSchema,
  points: z.number().nullable(),
});
export type EvalGap = z.infer<typeof EvalGapSchema>;

export const EvalRunSchema = z.object({
  id: z.number().int(),
  model: z.string(),
  engine: EvalEngineSchema,
  /** The run's first condition: `score`, `items_total` and the results list are its, unless another is asked for. */
  mode: EvalModeSchema,
  /** Every condition the run asks, in the order given, with its own score. */
  conditions: z.array(EvalConditionScoreSchema),
  /** The gaps between the run's conditions that it asked both sides of. */
  gaps: z.array(EvalGapSchema),
  status: EvalRunStatusSchema,
  concurrency: z.number().int(),
  /** Asked through the OpenAI Batch API (half price, answers within a day) rather than call by call. */
  batch: z.boolean(),
  /** The batch run's latest batch, as last polled; null for a run asked call by call (or before its batch exists). */
  batch_progress: BatchProgressSchema.nullable(),
  /** Questions in the run's snapshot, every condition's, skipped ones left out. */
  items_total: z.number().int(),
  /** Questions a condition could not ask (`items_skipped` per condition says which). */
  items_skipped: z.number().int(),
  /** Asked and answered (the reply may still hold no extractable answer). */
  items_answered: z.number().int(),
  /** Gave up after retries, or (imported) no prediction in the file. */
  items_failed: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cost: z.number(),
  /** Why a failed run failed, or why a paused one stopped; null while it runs (a resume clears it). */
  error: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /**
   * Over the questions finished so far (answered or failed; a failed one counts as wrong). For
   * an `original` run the gold is the factual label, so its accuracy is Acc_QA.
   */
  score: EvalScoreSchema,
});
export type EvalRun = z.infer<typeof EvalRunSchema>;

/**
 * One model's line in the paper's tables: the latest finished run of each mode. Table 3: QA
 * accuracy (original), HQA accuracy, decline rate; Table 4: accuracy per answer type and its
 * variance; plus the bias rate and the no-image control.
 */
export const EvalComparisonRowSchema = z.object({
  model: z.string(),
  hqa_run_id: z.number().int(),
  original_run_id: z.number().int().nullable(),
  no_image_run_id: z.number().int().nullable(),
  items: z.number().int(),
  hqa_accuracy: nullablePercent,
  qa_accuracy: nullablePercent,
  /** Over the `same` questions of both runs; `left_out_different` says how many of the HQA run's were left out. */
  decline_rate: nullablePercent,
  no_image_accuracy: nullablePercent,
  by_answer_type: z.object({ integer: nullablePercent, decimal: nullablePercent, boolean: nullablePercent, text: nullablePercent }),
  answer_type_variance: z.number().nullable(),
  bias_rate: nullablePercent,
  /** The HQA run's questions left out of the decline and bias rates (not the factual question under an assumption). */
  left_out_different: z.number().int(),
});
export type EvalComparisonRow = z.infer<typeof EvalComparisonRowSchema>;

/** `skipped`: the condition could not ask it (the reason in `error`); never scored. */
export const EvalResultStatusSchema = z.enum(['pending', 'running', 'answered', 'failed', 'skipped']);

export const EvalResultSchema = z.object({
  /** The item's public export id (`chq-000123`). */
  id: z.string(),
  item_id: z.number().int(),
  condition: EvalModeSchema,
  chart_id: z.number().int(),
  imgname: z.string(),
  question: z.string(),
  gold: z.string(),
  answer_type: AnswerTypeSchema,
  affects_answer: z.boolean(),
  original_label: z.string(),
  status: EvalResultStatusSchema,
  prediction: z.string().nullable(),
  raw: z.string().nullable(),
  /** Null until answered or failed. */
  correct: z.boolean().nullable(),
  biased: z.boolean(),
  error: z.string().nullable(),
});
export type EvalResult = z.infer<typeof EvalResultSchema>;

// GET /api/eval-runs   → every run, newest first
export const EvalRunListResponseSchema = z.object({ runs: z.array(EvalRunSchema) });

// GET /api/eval-runs/comparison
export const EvalComparisonResponseSchema = z.object({ rows: z.array(EvalComparisonRowSchema) });

/**
 * Questions that every compared model got wrong (its latest finished `hqa` run): the hardest
 * questions of the benchmark — or mislabelled ones, worth a second review.
 */
export const UnsolvedQuestionSchema = z.object({
  id: z.string(),
  item_id: z.number().int(),
  question: z.string(),
  gold: z.string(),
  /** Each compared model's prediction (null: none extracted), in `models` order. */
  predictions: z.array(z.string().nullable()),
});
// GET /api/eval-runs/unsolved?limit=   → questions wrong for every model, in dataset order
export const UnsolvedQueryRequestSchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });
export const UnsolvedResponseSchema = z.object({
  models: z.array(z.object({ model: z.string(), run_id: z.number().int() })),
  /** Questions asked in every compared run. */
  compared: z.number().int(),
  total: z.number().int(),
  questions: z.array(UnsolvedQuestionSchema),
});
export type UnsolvedResponse = z.infer<typeof UnsolvedResponseSchema>;

// POST /api/eval-runs   (curator) → 201 EvalRunResponse; the run proceeds in the background
export const StartEvalRequestSchema = z
  .object({
    engine: z.enum(['openai', 'factual-baseline']),
    /** Required for `openai`; the factual baseline records its own name. */
    model: z.string().trim().min(1).max(200).optional(),
    mode: EvalModeSchema.default('hqa'),
    /** Several conditions in one run (the page's checkboxes); when given, `mode` is ignored and the first is the run's mode. */
    conditions: z.array(EvalModeSchema).min(1).max(EVAL_MODES.length).optional(),
    concurrency: z.number().int().min(1).max(32).default(4),
    /** Only the first N accepted items (a quick look before a full run). */
    limit: z.number().int().min(1).max(1_000_000).optional(),
    /** Send the questions as one OpenAI Batch API batch: half price, answered within 24 hours. */
    batch: z.boolean().default(false),
  })
  .refine((request) => request.engine !== 'openai' || request.model !== undefined, { message: 'is required for the openai engine', path: ['model'] })
  .refine((request) => !request.batch || request.engine === 'openai', { message: 'only the openai engine asks through the Batch API', path: ['batch'] })
  .refine((request) => new Set(request.conditions).size === (request.conditions?.length ?? 0), { message: 'names a condition twice', path: ['conditions'] });
export type StartEvalRequest = z.input<typeof StartEvalRequestSchema>;

/** `hqa eval` output rows. A null prediction (no extractable answer) is scored as wrong. */
export const PredictionRowSchema = z.object({ id: z.string().min(1).max(64), prediction: z.string().max(10_000).nullable(), raw: z.string().max(100_000).optional() });
export type PredictionRow = z.infer<typeof PredictionRowSchema>;

// POST /api/eval-runs/import   (curator) → 201 EvalRunResponse. Ids are export ids of accepted items.
export const ImportEvalRequestSchema = z.object({
  model: z.string().trim().min(1).max(200),
  mode: EvalModeSchema.default('hqa'),
  predictions: z.array(PredictionRowSchema).min(1, 'holds no predictions').max(1_000_000),
});
export type ImportEvalRequest = z.input<typeof ImportEvalRequestSchema>;
/** Imports carry every raw reply: bigger than other JSON bodies. */
export const IMPORT_BODY_LIMIT = '64mb';

export const EvalRunResponseSchema = z.object({ run: EvalRunSchema });

// GET /api/eval-runs/:id   → the run and, for hqa/no_image runs, the decline rate against the
// same model's latest finished `original` run (null without one)
/** Accuracy over one slice of a run's finished questions. */
export const EvalSliceSchema = z.object({ items: z.number().int(), correct: z.number().int(), accuracy: nullablePercent });

/**
 * Past the paper's tables: where a model fails. Per chart type, and split by whether the
 * assumption changes the factual answer (a model that ignores assumptions does well only on
 * the questions whose answer they keep).
 */
export const EvalBreakdownSchema = z.object({
  by_chart_type: z.array(EvalSliceSchema.extend({ chart_type: ChartTypeSchema })),
  answer_changed: EvalSliceSchema,
  answer_kept: EvalSliceSchema,
});
export type EvalBreakdown = z.infer<typeof EvalBreakdownSchema>;

export const EvalRunDetailResponseSchema = z.object({
  run: EvalRunSchema,
  baseline: z.object({ run_id: z.number().int(), qa_accuracy: nullablePercent, decline_rate: nullablePercent }).nullable(),
  breakdown: EvalBreakdownSchema,
  /**
   * Relaxed accuracy under every scoring rule (chartqa, the reference, first), recomputed from the
   * stored predictions, so the score can be set beside figures published under Qwen-VL's or
   * ChartBench's rule. docs/scoring-rules.md.
   */
  rules: z.array(RuleAccuracySchema),
});

export const EVAL_OUTCOMES = ['all', 'correct', 'wrong', 'missing', 'biased', 'failed', 'skipped'] as const;
// GET /api/eval-runs/:id/results?outcome=&answer_type=&q=&page=&page_size=
export const EvalResultsQuerySchema = PageQuerySchema.extend({
  /** One of the run's conditions; the run's first when left out. */
  condition: EvalModeSchema.optional(),
  outcome: z.enum(EVAL_OUTCOMES).default('all'),
  answer_type: AnswerTypeSchema.optional(),
  q: z.string().trim().max(200).optional(),
});
export type EvalResultsQuery = z.infer<typeof EvalResultsQuerySchema>;
export const EvalResultsResponseSchema = z.object({ results: z.array(EvalResultSchema), total: z.number().int() });

// POST /api/eval-runs/:id/cancel   (curator) → EvalRunResponse; a queued, running or paused run
// POST /api/eval-runs/:id/resume   (curator) → EvalRunResponse; a paused run goes on where it stopped

// POST /api/eval/score-file   (any signed-in user) → ScoreReport. A seed benchmark's dataset and
// predictions files, read in the browser, scored as `hqa score --format` does; nothing is stored.
/** A file's name (named in error messages) and whole text; the body may be up to IMPORT_BODY_LIMIT. */
export const ScoreFileTextSchema = z.object({ name: z.string().trim().min(1).max(500), text: z.string().min(1, 'is empty').max(60_000_000) });
export const ScoreFileRequestSchema = z.object({
  format: ScoreFileFormatSchema,
  rule: ScoringRuleSchema.default(DEFAULT_SCORING_RULE),
  dataset: ScoreFileTextSchema,
  predictions: ScoreFileTextSchema,
  /** Chart-HQA only: the same model's predictions on the factual questions, for the decline rate. */
  baseline: ScoreFileTextSchema.optional(),
});
export type ScoreFileRequest = z.input<typeof ScoreFileRequestSchema>;

/** Reading evaluations is for reviewers; starting, importing, resuming and cancelling for curators. */
export const evalApi = {
  list: endpoint('GET', '/api/eval-runs', { response: EvalRunListResponseSchema }),
  comparison: endpoint('GET', '/api/eval-runs/comparison', { response: EvalComparisonResponseSchema }),
  unsolved: endpoint('GET', '/api/eval-runs/unsolved', { query: UnsolvedQueryRequestSchema, response: UnsolvedResponseSchema }),
  get: endpoint('GET', '/api/eval-runs/:id', { params: IdParamSchema, response: EvalRunDetailResponseSchema }),
  results: endpoint('GET', '/api/eval-runs/:id/results', { params: IdParamSchema, query: EvalResultsQuerySchema, response: EvalResultsResponseSchema }),
  /** `hqa eval`'s file (a JSON array of PredictionRow), streamed as an attachment, for `hqa score` or another tool. */
  predictions: endpoint('GET', '/api/eval-runs/:id/predictions', { params: IdParamSchema, response: 'file' }),
  create: endpoint('POST', '/api/eval-runs', { body: StartEvalRequestSchema, response: EvalRunResponseSchema, status: 201 }),
  /** Its body may be up to IMPORT_BODY_LIMIT, read only after the role check. */
  import: endpoint('POST', '/api/eval-runs/import', { body: ImportEvalRequestSchema, response: EvalRunResponseSchema, status: 201 }),
  cancel: endpoint('POST', '/api/eval-runs/:id/cancel', { params: IdParamSchema, response: EvalRunResponseSchema }),
  resume: endpoint('POST', '/api/eval-runs/:id/resume', { params: IdParamSchema, response: EvalRunResponseSchema }),
  /** Any signed-in user; its body may be up to IMPORT_BODY_LIMIT, read only after the role check. */
  scoreFile: endpoint('POST', '/api/eval/score-file', { body: ScoreFileRequestSchema, response: ScoreReportSchema }),
} as const;

// ── Published figures: a paper's Table 3 or Table 4 beside the models evaluated here ──
/** Characters a published table's TSV may hold (the paper's tables are about 1 kB); under the app's JSON body limit. */
export const PUBLISHED_TSV_MAX_CHARS = 200_000;

const PublishedTableBase = {
  id: z.number().int(),
  /** Where the figures come from, as the uploader named it. */
  source: z.string(),
  file_name: z.string(),
  created_by: z.string().nullable(),
  created_at: z.string(),
};
/** An uploaded table; each row's printed figure checked against the one recomputed from its own accuracies. */
export const PublishedTableSchema = z.discriminatedUnion('kind', [
  z.object({ ...PublishedTableBase, kind: z.literal('table3'), rows: z.array(Table3RowSchema.extend({ check: FigureCheckSchema })) }),
  z.object({ ...PublishedTableBase, kind: z.literal('table4'), rows: z.array(Table4RowSchema.extend({ check: FigureCheckSchema })) }),
]);
export type PublishedTable = z.infer<typeof PublishedTableSchema>;

// GET /api/published-figures   (any signed-in user) → every uploaded table, oldest first
export const PublishedTableListResponseSchema = z.object({ tables: z.array(PublishedTableSchema) });

// POST /api/published-figures   (curator) → 201 { table }. `text` is read by shared/eval/paper-tables.ts;
// a file it refuses is a 400 naming the file, line and column.
export const UploadPublishedTableRequestSchema = z.object({
  source: z.string().trim().min(1, 'is empty: say where the figures come from').max(200),
  file_name: z.string().trim().min(1).max(255),
  text: z.string().min(1, 'is empty').max(PUBLISHED_TSV_MAX_CHARS),
});
export type UploadPublishedTableRequest = z.input<typeof UploadPublishedTableRequestSchema>;
export const PublishedTableResponseSchema = z.object({ table: PublishedTableSchema });

// DELETE /api/published-figures/:id   (curator) → { id }
export const DeletePublishedTableResponseSchema = z.object({ id: z.number().int() });

/** Reading published figures is for every signed-in user; uploading and deleting for curators. */
export const publishedFiguresApi = {
  list: endpoint('GET', '/api/published-figures', { response: PublishedTableListResponseSchema }),
  upload: endpoint('POST', '/api/published-figures', { body: UploadPublishedTableRequestSchema, response: PublishedTableResponseSchema, status: 201 }),
  remove: endpoint('DELETE', '/api/published-figures/:id', { params: IdParamSchema, response: DeletePublishedTableResponseSchema }),
} as const;
