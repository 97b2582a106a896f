import { z } from 'zod';
import { RELAXED_TOLERANCE, relaxedCorrect, toFloat } from '../table/answers';

/**
 * The relaxed-correctness rules in the wild. `chartqa` is pix2struct's `relaxed_correctness`
 * (the ChartQA paper's, our reference and default); the others are copies published numbers
 * were computed with, kept so a user can compare with a figure published under either.
 * docs/scoring-rules.md tables every difference.
 */
export const SCORING_RULES = ['chartqa', 'qwen-vl', 'chartbench'] as const;
export const ScoringRuleSchema = z.enum(SCORING_RULES);
export type ScoringRule = z.infer<typeof ScoringRuleSchema>;
export const DEFAULT_SCORING_RULE: ScoringRule = 'chartqa';

/** Is `prediction` right for `target` under `rule`? */
export function correctUnder(rule: ScoringRule, prediction: string, target: string): boolean {
  switch (rule) {
    case 'chartqa':
      return relaxedCorrect(prediction, target);
    case 'qwen-vl':
      // Qwen-VL / InternVL call relaxed_correctness(prediction, gold): the arguments swapped, so the prediction is the denominator.
      return relaxedCorrect(target, prediction);
    case 'chartbench':
      return chartbenchCorrect(prediction, target);
  }
}

/** ChartBench's NQA rule: `%` ignored, divided by the prediction, any prediction ≤ 0.05 right for a zero target. */
function chartbenchCorrect(prediction: string, target: string): boolean {
  const predicted = toFloat(prediction.replace(/%/g, ''));
  const expected = toFloat(target.replace(/%/g, ''));
  if (predicted === null || expected === null) return prediction.trim().toLowerCase() === target.trim().toLowerCase();
  if (expected === 0) return predicted <= RELAXED_TOLERANCE;
  if (predicted === 0) return false;
  return Math.abs(predicted - expected) / Math.abs(predicted) <= RELAXED_TOLERANCE;
}
