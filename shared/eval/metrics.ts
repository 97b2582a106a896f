import type { QuestionRelation } from '../domain/generation';
import { ANSWER_TYPES, type AnswerType } from '../table/answers';
import { answerCorrect, DEFAULT_SCORING_RULE, type ScoringRule } from './scoring-rules';
import { percentHalfUp, quotientHalfUp, roundHalfUp, toDecimal, type DecimalInput } from './decimal-round';

/**
 * Scores of a model run on Chart-HQA, as the paper reports them (relaxed accuracy, accuracy per
 * answer type and its variance, decline rate against the factual questions) plus the bias rate.
 * Every comparison goes through `answerCorrect` under one scoring rule (default `chartqa`,
 * pix2struct's relaxed correctness), gold and prediction normalised alike.
 *
 * The decline and bias rates measure the paper's task, the factual question under an
 * assumption, so they count only `same` items; an item that asks another question (`different`)
 * is a different task, whose factual label answers something else. Accuracy, per answer type and
 * its variance stay over every item. Results say how many items the rates left out.
 *
 * Accuracies and rates are percentages. They are computed from raw counts and rounded to two
 * decimals only in the returned result, so a derived figure (variance, decline rate) never
 * compounds rounding. Rounding is half-up on the exact value (`decimal-round.ts`): a share of
 * counts on its exact rational, a figure given as a decimal on that decimal — as the paper
 * rounds, where binary floats would print 43.125 as 43.12.
 */

/** What scoring reads of an exported item. */
export interface ScorableItem {
  id: string;
  /** The hypothetical answer (gold). */
  answer: string;
  answer_type: AnswerType;
  /** Does the assumption change the factual answer? */
  affects_answer: boolean;
  /** The factual question's label (ChartQA's answer before the assumption). */
  original_label: string;
  /** Is the question the factual question under the assumption (`same`) or another one? */
  question_relation: QuestionRelation;
}

/** Percentages are rounded to this many decimals in results. */
export const PERCENT_DECIMALS = 2;

export type ByAnswerType<T> = Record<AnswerType, T>;

export interface Score {
  /** Relaxed accuracy over all items, percent; null when there are no items. */
  relaxed_accuracy: number | null;
  /** Relaxed accuracy per answer type, percent; null for a type with no items. */
  by_answer_type: ByAnswerType<number | null>;
  /** Population variance of the per-type accuracies (percent², over the types present; see `answerTypeVariance`). */
  answer_type_variance: number | null;
  /** Percent of `same` items whose assumption changes the answer answered with the original label instead; null when there are none. */
  bias_rate: number | null;
  /** Items left out of the decline and bias rates: their question is not the factual question under an assumption. */
  left_out_different: number;
  counts: {
    items: number;
    /** Items with a prediction. */
    predicted: number;
    /** Items without one: scored as wrong. */
    missing: number;
    correct: number;
    by_answer_type: ByAnswerType<{ items: number; correct: number }>;
    /** `same` items whose assumption changes the factual answer: the bias rate's denominator. */
    affects_answer: number;
    /** Of those, items whose prediction is the original label instead of the answer. */
    biased: number;
    /** Items whose question is the factual question under an assumption (the decline rate's items). */
    same_question: number;
    /** Of those, items answered right. */
    same_correct: number;
    /** Predictions whose id is not an item of the dataset (ignored). */
    unknown_predictions: number;
  };
}

/** Raw (unrounded) figures, for deriving further metrics such as the decline rate. */
export interface RawScore {
  relaxedAccuracy: number | null;
  byAnswerType: ByAnswerType<number | null>;
  answerTypeVariance: number | null;
  biasRate: number | null;
  /** Relaxed accuracy over the `same` items only: the Acc_HQA of the decline rate. */
  sameQuestionAccuracy: number | null;
  leftOutDifferent: number;
  counts: Score['counts'];
}

/** Share in percent, unrounded; null for an empty denominator. */
export function percent(part: number, whole: number): number | null {
  return whole === 0 ? null : (part / whole) * 100;
}

/** A percentage as the counts it came from: `part` of `whole`, exactly part / whole × 100. */
export interface Share {
  part: number;
  whole: number;
}

/**
 * Population variance (divide by n, not n − 1) — the paper's Table 4 "Variance" of a model's
 * four per-answer-type accuracies. Null for no values. Unrounded, in binary floats: a printed
 * figure comes from `populationVarianceDecimal` or `varianceOfShares`.
 */
export function populationVariance(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
}

/**
 * Variance of the per-type accuracies (percent, so the variance is in percent²), over the
 * answer types that have items: a dataset without, say, decimal answers has no decimal accuracy
 * to contribute, and counting it as 0 would invent a spread.
 */
export function answerTypeVariance(byType: ByAnswerType<number | null>): number | null {
  return populationVariance(ANSWER_TYPES.map((type) => byType[type]).filter((value): value is number => value !== null));
}

/**
 * Population variance of decimals (a published table's accuracies, "51.55"), computed exactly and
 * rounded half-up to `decimals`: (n·Σx² − (Σx)²) / n², one rounding at the end. Null for no values.
 */
export function populationVarianceDecimal(values: readonly DecimalInput[], decimals = PERCENT_DECIMALS): number | null {
  if (values.length === 0) return null;
  const xs = values.map((value) => toDecimal(value));
  const sum = xs.reduce((total, x) => total.plus(x), toDecimal(0));
  const sumOfSquares = xs.reduce((total, x) => total.plus(x.times(x)), toDecimal(0));
  const n = xs.length;
  return quotientHalfUp(sumOfSquares.times(n).minus(sum.times(sum)), n * n, decimals)?.toNumber() ?? null;
}

/**
 * Population variance of percentages given as counts (`Share`s), on the exact rationals, rounded
 * half-up to `decimals`. Null for no shares; a share with an empty whole has no percentage: leave it out.
 */
export function varianceOfShares(shares: readonly Share[], decimals = PERCENT_DECIMALS): number | null {
  if (shares.length === 0) return null;
  // Over the common denominator D = Π whole: x_i × D = 100 · part_i · D / whole_i, a whole number.
  const denominator = shares.reduce((product, share) => product.times(share.whole), toDecimal(1));
  const othersWhole = (index: number) => shares.reduce((product, other, j) => (j === index ? product : product.times(other.whole)), toDecimal(1));
  const scaled = shares.map((share, index) => toDecimal(100).times(share.part).times(othersWhole(index)));
  const sum = scaled.reduce((total, x) => total.plus(x), toDecimal(0));
  const sumOfSquares = scaled.reduce((total, x) => total.plus(x.times(x)), toDecimal(0));
  const n = shares.length;
  return quotientHalfUp(sumOfSquares.times(n).minus(sum.times(sum)), denominator.times(denominator).times(n * n), decimals)?.toNumber() ?? null;
}

/**
 * The paper's Decline Rate: |Acc_QA − Acc_HQA| / Acc_QA × 100, both accuracies in percent (or
 * both as fractions — the ratio is scale-free). Null when Acc_QA is 0, where it is undefined.
 * Unrounded, in binary floats: a printed figure comes from `declineRateDecimal` or `declineRateOfShares`.
 */
export function declineRate(accQA: number, accHQA: number): number | null {
  if (accQA === 0) return null;
  return (Math.abs(accQA - accHQA) / accQA) * 100;
}

/**
 * The decline rate of two accuracies given as decimals (Table 3's "84.80", "48.23"), computed
 * exactly and rounded half-up to `decimals` (43.125 → 43.13). Null when Acc_QA is 0.
 */
export function declineRateDecimal(accQA: DecimalInput, accHQA: DecimalInput, decimals = PERCENT_DECIMALS): number | null {
  const qa = toDecimal(accQA);
  return quotientHalfUp(qa.minus(accHQA).abs().times(100), qa, decimals)?.toNumber() ?? null;
}

/**
 * The decline rate of two accuracies given as counts, on the exact rational
 * |qa.part·hqa.whole − hqa.part·qa.whole| · 100 / (qa.part·hqa.whole), rounded half-up. Null when
 * either whole is empty or Acc_QA is 0.
 */
export function declineRateOfShares(qa: Share, hqa: Share, decimals = PERCENT_DECIMALS): number | null {
  if (qa.whole === 0 || hqa.whole === 0) return null;
  const qaScaled = toDecimal(qa.part).times(hqa.whole);
  const hqaScaled = toDecimal(hqa.part).times(qa.whole);
  return quotientHalfUp(qaScaled.minus(hqaScaled).abs().times(100), qaScaled, decimals)?.toNumber() ?? null;
}

/**
 * Rounds half away from zero to `decimals`, on the number's decimal value (its shortest decimal
 * string: 1.005 → 1.01, 12.345 → 12.35). A percentage from counts rounds exactly with
 * `percentHalfUp`; this is for a figure that is already a decimal.
 */
export function roundTo(value: number, decimals = PERCENT_DECIMALS): number {
  return roundHalfUp(value, decimals);
}

/** part / whole × 100 rounded half-up on the exact rational to the result's decimals; null for an empty whole. */
export function roundedPercent(part: number, whole: number): number | null {
  return percentHalfUp(part, whole, PERCENT_DECIMALS);
}

/**
 * How many predictions are right against a chosen gold string per item; a missing prediction is
 * wrong. Used for the factual baseline (gold = `original_label`).
 */
export function relaxedCorrectCount(
  items: readonly ScorableItem[],
  predictions: ReadonlyMap<string, string>,
  gold: (item: ScorableItem) => string = (item) => item.answer,
  rule: ScoringRule = DEFAULT_SCORING_RULE,
): number {
  let correct = 0;
  for (const item of items) {
    const prediction = predictions.get(item.id);
    if (prediction !== undefined && answerCorrect(rule, prediction, gold(item))) correct += 1;
  }
  return correct;
}

/** Relaxed accuracy (percent, unrounded) of `relaxedCorrectCount` over the items. */
export function relaxedAccuracy(
  items: readonly ScorableItem[],
  predictions: ReadonlyMap<string, string>,
  gold: (item: ScorableItem) => string = (item) => item.answer,
  rule: ScoringRule = DEFAULT_SCORING_RULE,
): number | null {
  return percent(relaxedCorrectCount(items, predictions, gold, rule), items.length);
}

/**
 * How one prediction scores against an item: right within ChartQA's tolerance, and "biased" when
 * the assumption changed the answer of the factual question and the model gave its original
 * label instead. A prediction also within tolerance of the hypothetical answer is right, not
 * biased; a `different` item is never biased, as its factual label answers another question.
 */
export function judgePrediction(
  item: Pick<ScorableItem, 'answer' | 'affects_answer' | 'original_label' | 'question_relation'>,
  prediction: string,
  rule: ScoringRule = DEFAULT_SCORING_RULE,
): { correct: boolean; biased: boolean } {
  const correct = answerCorrect(rule, prediction, item.answer);
  return { correct, biased: countsTowardBias(item) && !correct && answerCorrect(rule, prediction, item.original_label) };
}

/** Counts of a scored run (`Score['counts']`), from which every figure is derived. */
export type ScoreCounts = Score['counts'];

/** Every figure of `Score`, unrounded, from counts (so stored per-item verdicts aggregate the same way). */
export function measureCounts(counts: ScoreCounts): RawScore {
  const byAnswerType = Object.fromEntries(
    ANSWER_TYPES.map((type) => [type, percent(counts.by_answer_type[type].correct, counts.by_answer_type[type].items)]),
  ) as ByAnswerType<number | null>;
  return {
    relaxedAccuracy: percent(counts.correct, counts.items),
    byAnswerType,
    answerTypeVariance: answerTypeVariance(byAnswerType),
    biasRate: percent(counts.biased, counts.affects_answer),
    sameQuestionAccuracy: percent(counts.same_correct, counts.same_question),
    leftOutDifferent: counts.items - counts.same_question,
    counts,
  };
}

/** Zeroed per-type counters. */
export function emptyTypeCounts(): ByAnswerType<{ items: number; correct: number }> {
  return Object.fromEntries(ANSWER_TYPES.map((type) => [type, { items: 0, correct: 0 }])) as ByAnswerType<{ items: number; correct: number }>;
}

/**
 * Does an item count toward the bias rate (its denominator)? Only a `same` item whose assumption
 * changes the factual answer: a `different` item's factual label answers another question. The
 * one definition: per-prediction verdicts (`judgePrediction`) and counts of stored verdicts
 * (`countVerdicts`, a run's rows) both ask it.
 */
export function countsTowardBias(item: Pick<ScorableItem, 'affects_answer' | 'question_relation'>): boolean {
  return item.affects_answer && item.question_relation === 'same';
}

/** One scored question as counted: a prediction's verdict (or none), stored or just judged. */
export interface Verdict {
  answer_type: AnswerType;
  affects_answer: boolean;
  question_relation: QuestionRelation;
  /** Null: no prediction (missing, scored wrong and not biased). */
  verdict: { correct: boolean; biased: boolean } | null;
  /** How many questions share exactly these fields (a stored run's rows, grouped); absent: one. */
  count?: number;
}

/**
 * The counts of a set of verdicts: the only place that decides which questions each count takes
 * (every item for accuracy; `same` ones for the decline rate's; `countsTowardBias` for the bias
 * rate's), for files scored in memory and for a run's stored rows alike.
 */
export function countVerdicts(verdicts: Iterable<Verdict>, unknownPredictions = 0): ScoreCounts {
  const perType = emptyTypeCounts();
  let items = 0;
  let predicted = 0;
  let correct = 0;
  let affects = 0;
  let biased = 0;
  let same = 0;
  let sameCorrect = 0;
  for (const question of verdicts) {
    const n = question.count ?? 1;
    items += n;
    const bucket = perType[question.answer_type];
    bucket.items += n;
    const isSame = question.question_relation === 'same';
    const inBias = countsTowardBias(question);
    if (isSame) same += n;
    if (inBias) affects += n;
    if (question.verdict === null) continue;
    predicted += n;
    if (question.verdict.correct) {
      correct += n;
      bucket.correct += n;
      if (isSame) sameCorrect += n;
    }
    if (inBias && question.verdict.biased) biased += n;
  }
  return {
    items,
    predicted,
    missing: items - predicted,
    correct,
    by_answer_type: perType,
    affects_answer: affects,
    biased,
    same_question: same,
    same_correct: sameCorrect,
    unknown_predictions: unknownPredictions,
  };
}

/** Every figure of `Score`, unrounded. */
export function measureItems(items: readonly ScorableItem[], predictions: ReadonlyMap<string, string>, rule: ScoringRule = DEFAULT_SCORING_RULE): RawScore {
  const ids = new Set(items.map((item) => item.id));
  let unknown = 0;
  for (const id of predictions.keys()) if (!ids.has(id)) unknown += 1;
  const verdicts = items.map((item): Verdict => {
    const prediction = predictions.get(item.id);
    return { ...item, verdict: prediction === undefined ? null : judgePrediction(item, prediction, rule) };
  });
  return measureCounts(countVerdicts(verdicts, unknown));
}

/**
 * Scores predictions (item id → predicted answer) on Chart-HQA items: relaxed accuracy overall
 * and per answer type, the population variance of the per-type accuracies, the bias rate and
 * counts. A missing prediction counts as wrong (and as not biased). Percentages have two decimals.
 */
export function scoreItems(items: readonly ScorableItem[], predictions: ReadonlyMap<string, string>, rule: ScoringRule = DEFAULT_SCORING_RULE): Score {
  return roundScore(measureItems(items, predictions, rule));
}

/** The answer types with items, as shares: the variance's inputs (see `answerTypeVariance`). */
function typeShares(counts: ScoreCounts): Share[] {
  return ANSWER_TYPES.map((type) => counts.by_answer_type[type])
    .filter((bucket) => bucket.items > 0)
    .map((bucket) => ({ part: bucket.correct, whole: bucket.items }));
}

/** The result's figures, rounded half-up on the exact rationals of `raw.counts` (from which every raw figure is derived). */
export function roundScore(raw: RawScore): Score {
  const { counts } = raw;
  return {
    relaxed_accuracy: roundedPercent(counts.correct, counts.items),
    by_answer_type: Object.fromEntries(
      ANSWER_TYPES.map((type) => [type, roundedPercent(counts.by_answer_type[type].correct, counts.by_answer_type[type].items)]),
    ) as ByAnswerType<number | null>,
    answer_type_variance: varianceOfShares(typeShares(counts)),
    bias_rate: roundedPercent(counts.biased, counts.affects_answer),
    left_out_different: raw.leftOutDifferent,
    counts: raw.counts,
  };
}

export interface ScoreWithBaseline extends Score {
  /** The baseline's relaxed accuracy on the factual questions of every item, percent. */
  baseline_accuracy: number | null;
  /**
   * |Acc_QA − Acc_HQA| / Acc_QA × 100 over the `same` items (both accuracies on them), from
   * their counts, rounded once; null when Acc_QA is 0 or there are no `same` items.
   */
  decline_rate: number | null;
  /** The two accuracies the decline rate compares, over its `items` (the `same` ones). */
  decline_over: { items: number; accuracy: number | null; baseline_accuracy: number | null };
}

/**
 * `scoreItems` plus the decline rate against a baseline run of the same model on the ORIGINAL
 * factual questions, scored against each item's `original_label`: the model's accuracy on the
 * `same` items against the baseline's on those items' factual questions.
 */
export function scoreWithBaseline(
  items: readonly ScorableItem[],
  predictions: ReadonlyMap<string, string>,
  baseline: ReadonlyMap<string, string>,
  rule: ScoringRule = DEFAULT_SCORING_RULE,
): ScoreWithBaseline {
  const raw = measureItems(items, predictions, rule);
  const same = items.filter((item) => item.question_relation === 'same');
  const factual = (item: ScorableItem) => item.original_label;
  const hqa: Share = { part: raw.counts.same_correct, whole: raw.counts.same_question };
  const qa: Share = { part: relaxedCorrectCount(same, baseline, factual, rule), whole: same.length };
  return {
    ...roundScore(raw),
    baseline_accuracy: roundedPercent(relaxedCorrectCount(items, baseline, factual, rule), items.length),
    decline_rate: declineRateOfShares(qa, hqa),
    decline_over: { items: same.length, accuracy: roundedPercent(hqa.part, hqa.whole), baseline_accuracy: roundedPercent(qa.part, qa.whole) },
  };
}
