import { z } from 'zod';
import { ChartTypeSchema, type ChartType } from '../domain/chart-types';
import { AnswerTypeSchema } from '../table/answers';

/**
 * The `pairs` export: each accepted item with a numeric answer as one ChartBench judgement-pair
 * record (ChartBench's own layout, `test.jsonl`), so ChartBench-format scorers read it. The first
 * assertion states the item's verified answer (label Yes), the second a plausible wrong value
 * (label No). docs/judgement-pairs.md says how the assertions are worded and the values chosen.
 */

/** ChartBench's `type.QA` of a judgement pair, scored by Acc+. */
export const PAIRS_QA = 'Acc+';
/**
 * The task written in ChartBench's `type.task`. ChartBench's `Stat/stat_all_metric.py` files every
 * Acc+ record under `metrics[...][task]` and `wi_<task>`/`wo_<task>`, and knows only CR, VE, VC
 * and GC: any other name (our former `HQA`) stops the script with a KeyError. Each pair asserts
 * one value of the (edited) chart — "… would be 140" true, "… would be 70" false — which is
 * ChartBench's value-extraction judgement (VE), not chart recognition (CR), a comparison of two
 * values (VC) or a global property (GC); so its per-task table counts these pairs as VE.
 */
export const PAIRS_TASK = 'VE';
/** The task name exports before VE wrote; still read, so older pairs files score as before. */
export const LEGACY_PAIRS_TASK = 'HQA';
/**
 * What a runner appends to each query, ChartBench's own wording (its prompts end "{query} Please
 * answer yes or no."). Kept out of `query`, as ChartBench's records keep it, so its runners,
 * which add their own prompt, do not ask it twice.
 */
export const PAIRS_INSTRUCTION = 'Please answer yes or no.';

/** Where the false assertion's value came from. */
export const FALSE_VALUE_SOURCES = ['original_label', 'edited_table', 'nearby_count'] as const;
export const FalseValueSourceSchema = z.enum(FALSE_VALUE_SOURCES);
export type FalseValueSource = z.infer<typeof FalseValueSourceSchema>;

/** `statement`: the question turned into a declarative sentence; `answer_to_question`: "the answer to "…" would be V", where no rewrite fits. */
export const PAIR_WORDINGS = ['statement', 'answer_to_question'] as const;
export const PairWordingSchema = z.enum(PAIR_WORDINGS);
export type PairWording = z.infer<typeof PairWordingSchema>;

/**
 * ChartBench's chart groups (`type.chart`): our chart types folded the way its `metric_group`
 * folds its subtypes (every bar kind is `bar`); `type.image` keeps our type.
 */
export const CHART_GROUPS: Record<ChartType, string> = {
  vertical_bar: 'bar',
  horizontal_bar: 'bar',
  grouped_bar: 'bar',
  stacked_bar: 'bar',
  line: 'line',
  pie: 'pie',
  area: 'area',
  scatter: 'scatter',
  other: 'other',
};

const AssertionSchema = <L extends 'Yes' | 'No'>(label: L) => z.object({ label: z.literal(label), query: z.string().min(1) });

export const PairsRecordSchema = z.object({
  /**
   * ChartBench's record id, a number as its runners expect: the item's own number (`chq-000012`
   * is 12), stable across exports, so predictions of one export never match another's items by
   * position. Predictions name each assertion `<id>#0` (the true one) and `<id>#1`.
   */
  id: z.number().int().positive(),
  /** The item's id in every other export. */
  item_id: z.string(),
  /** The chart's image file, as the other exports and `--images` name it. */
  image: z.string(),
  type: z.object({ chart: z.string(), image: ChartTypeSchema, task: z.enum([PAIRS_TASK, LEGACY_PAIRS_TASK]), QA: z.literal(PAIRS_QA) }),
  /** The true assertion first, as in ChartBench. */
  conversation: z.tuple([AssertionSchema('Yes'), AssertionSchema('No')]),
  instruction: z.literal(PAIRS_INSTRUCTION),
  /** The item's hypothetical question and its verified answer (reviewers' corrections applied). */
  question: z.string(),
  answer: z.string(),
  answer_type: AnswerTypeSchema,
  /** The value the false assertion states, formatted as the answer is. */
  false_value: z.string(),
  false_value_source: FalseValueSourceSchema,
  wording: PairWordingSchema,
});
export type PairsRecord = z.infer<typeof PairsRecordSchema>;

/** Why an accepted item made no pair; the export report counts each. */
export const PAIR_SKIP_REASONS = ['not_numeric', 'label_answer', 'no_wrong_value', 'edit_not_applied'] as const;
export const PairSkipReasonSchema = z.enum(PAIR_SKIP_REASONS);
export type PairSkipReason = z.infer<typeof PairSkipReasonSchema>;
