import { z } from 'zod';
import { roundedPercent } from './metrics';
import { answerCorrect, SCORING_RULES, ScoringRuleSchema } from './scoring-rules';

/**
 * Relaxed accuracy of one set of answers under every scoring rule, so a figure can be set beside
 * one published under another rule (Qwen-VL's, ChartBench's). A missing prediction is wrong
 * under every rule.
 */
export const RuleAccuracySchema = z.object({
  rule: ScoringRuleSchema,
  items: z.number().int(),
  correct: z.number().int(),
  /** Percent, rounded half-up to two decimals on the exact share; null over no items. */
  accuracy: z.number().nullable(),
});
export type RuleAccuracy = z.infer<typeof RuleAccuracySchema>;

/** One answer and what it is scored against. */
export interface ScoredPair {
  prediction: string | null;
  gold: string;
}

/** Accuracy under each rule, in `SCORING_RULES` order. */
export function accuracyUnderRules(pairs: Iterable<ScoredPair>): RuleAccuracy[] {
  const correct = SCORING_RULES.map(() => 0);
  let items = 0;
  for (const { prediction, gold } of pairs) {
    items += 1;
    if (prediction === null) continue;
    SCORING_RULES.forEach((rule, index) => {
      if (answerCorrect(rule, prediction, gold)) correct[index] = (correct[index] ?? 0) + 1;
    });
  }
  return SCORING_RULES.map((rule, index) => {
    const right = correct[index] ?? 0;
    return { rule, items, correct: right, accuracy: roundedPercent(right, items) };
  });
}
