import { PERCENT_DECIMALS } from './metrics';
import { percentHalfUp } from './decimal-round';

/**
 * The conditions of the paper's Figure 1 (and the two controls around them): what an
 * evaluation asks of each accepted item. One run may ask several, so a researcher can tell
 * imagining from seeing from remembering on the same items, with the same model, at one time.
 *
 * - `hqa`: the hypothetical question (assumption + question) on the chart; gold the item's answer.
 * - `original`: the factual question on the chart; gold the factual label (ChartQA's own task).
 * - `no_image`: the hypothetical question with no chart; gold the item's answer (memory control).
 * - `counterfactual_image`: the factual question on the item's edited table drawn; gold the
 *   item's answer — the assumption is seen, not imagined.
 * - `drawn_original`: the factual question on the original table drawn the same way; gold the
 *   factual label — the style control for `counterfactual_image` (a drawing is not the PNG).
 */
export const EVAL_CONDITIONS = ['hqa', 'original', 'no_image', 'counterfactual_image', 'drawn_original'] as const;
export type EvalCondition = (typeof EVAL_CONDITIONS)[number];

/** What a condition sends and scores against: one table, so the server, the CLI and the docs agree. */
export interface ConditionPlan {
  /** `hypothetical`: the item's question (assumption included); `factual`: `original.query`. */
  question: 'hypothetical' | 'factual';
  /** `answer`: the item's (hypothetical) answer; `label`: the factual label. */
  gold: 'answer' | 'label';
  /** `chart`: the chart's own image (its PNG, else drawn); the drawings are made from the item's tables. */
  image: 'chart' | 'none' | 'drawn_original' | 'drawn_counterfactual';
}

export const CONDITION_PLANS: Record<EvalCondition, ConditionPlan> = {
  hqa: { question: 'hypothetical', gold: 'answer', image: 'chart' },
  original: { question: 'factual', gold: 'label', image: 'chart' },
  no_image: { question: 'hypothetical', gold: 'answer', image: 'none' },
  counterfactual_image: { question: 'factual', gold: 'answer', image: 'drawn_counterfactual' },
  drawn_original: { question: 'factual', gold: 'label', image: 'drawn_original' },
};

/** Conditions whose image is drawn from the item's tables rather than the chart's own. */
export const conditionDraws = (condition: EvalCondition): boolean => CONDITION_PLANS[condition].image.startsWith('drawn_');

/** Correct answers over scored questions, as counted for one condition of a run. */
export interface ConditionShare {
  correct: number;
  items: number;
}

/**
 * The gaps the paper discusses, each `minuend − subtrahend` in percentage points of accuracy:
 * - imagining vs seeing: the hypothetical question on the original chart against the factual
 *   question on the counterfactual drawing (same gold): negative when imagining costs the model;
 * - memory: the hypothetical question without the chart against with it: near zero (or positive)
 *   when the model answers from memory rather than the chart;
 * - drawing style: the counterfactual drawing against the drawn original, and the drawn original
 *   against the chart's own image, so a gap from the data is not confused with one from the style.
 */
export const CONDITION_GAPS = [
  { id: 'imagining_vs_seeing', label: 'Imagining vs seeing', minuend: 'hqa', subtrahend: 'counterfactual_image' },
  { id: 'memory', label: 'Memory (no image vs hypothetical)', minuend: 'no_image', subtrahend: 'hqa' },
  { id: 'counterfactual_vs_drawn', label: 'Counterfactual vs drawn original', minuend: 'counterfactual_image', subtrahend: 'drawn_original' },
  { id: 'drawing_style', label: 'Drawing style (drawn vs original image)', minuend: 'drawn_original', subtrahend: 'original' },
] as const satisfies readonly { id: string; label: string; minuend: EvalCondition; subtrahend: EvalCondition }[];

export type ConditionGapId = (typeof CONDITION_GAPS)[number]['id'];

export interface ConditionGap {
  id: ConditionGapId;
  label: string;
  minuend: EvalCondition;
  subtrahend: EvalCondition;
  /** Percentage points, rounded half-up on the exact difference of the two shares; null when either condition has no scored question. */
  points: number | null;
}

/**
 * The gaps between the conditions a run asked (those it did not ask are left out). Each is
 * computed from the counts, not the rounded accuracies, so it never compounds rounding:
 * a/b − c/d = (a·d − c·b) / (b·d).
 */
export function conditionGaps(shares: Partial<Record<EvalCondition, ConditionShare>>): ConditionGap[] {
  const gaps: ConditionGap[] = [];
  for (const gap of CONDITION_GAPS) {
    const left = shares[gap.minuend];
    const right = shares[gap.subtrahend];
    if (!left || !right) continue;
    const points = left.items === 0 || right.items === 0 ? null : percentHalfUp(left.correct * right.items - right.correct * left.items, left.items * right.items, PERCENT_DECIMALS);
    gaps.push({ id: gap.id, label: gap.label, minuend: gap.minuend, subtrahend: gap.subtrahend, points });
  }
  return gaps;
}
