import { z } from 'zod';
import { RELAXED_TOLERANCE, relaxedCorrect } from '../table/answers';
import { pythonFloat, pythonStrip } from '../table/python-float';
import { normaliseAnswer } from './answer-extraction';

/**
 * The relaxed-correctness rules in the wild. `chartqa` is pix2struct's `relaxed_correctness`
 * (the ChartQA paper's, our reference and default); the others are the scripts published
 * numbers were computed with, called as those scripts call them, so a user can compare with a
 * figure published under either. Every rule strips whitespace (Python's `str.strip()`) from
 * both strings first: that is our one deliberate difference from each reference.
 * docs/scoring-rules.md tables the rules' differences, with the source of each;
 * test/reference-scorers checks every rule against the Python it reproduces.
 */
export const SCORING_RULES = ['chartqa', 'qwen-vl', 'chartbench'] as const;
export const ScoringRuleSchema = z.enum(SCORING_RULES);
export type ScoringRule = z.infer<typeof ScoringRuleSchema>;
export const DEFAULT_SCORING_RULE: ScoringRule = 'chartqa';

/** Where each rule comes from, for output that names it. */
export const SCORING_RULE_SOURCES: Record<ScoringRule, string> = {
  chartqa: 'pix2struct relaxed_correctness (ChartQA paper; lmms-eval, VLMEvalKit)',
  'qwen-vl': 'Qwen-VL / InternVL evaluate_vqa.py (divides by the prediction)',
  chartbench: 'ChartBench stat_all_metric.py (divides by the prediction, % optional)',
};

/** Is `prediction` right for `target` under `rule`? The strings as given: no answer extraction. */
export function correctUnder(rule: ScoringRule, prediction: string, target: string): boolean {
  switch (rule) {
    case 'chartqa':
      return relaxedCorrect(prediction, target);
    case 'qwen-vl':
      // evaluate_relaxed_accuracy calls relaxed_correctness(answer.strip(), gold): the model's
      // answer goes in as `target`, so the prediction is the denominator and a zero prediction
      // (not a zero gold) falls back to comparing strings.
      return relaxedCorrect(target, prediction);
    case 'chartbench':
      return chartbenchCorrect(prediction, target);
  }
}

/**
 * Is a model's answer right for its gold answer under `rule`, on every scoring path (stored
 * runs, imports, `hqa score`)? Both sides are normalised as `extractAnswer` normalises the
 * prediction (emphasis, quotes and a final full stop dropped), so a gold "U.S." meets the
 * extracted "U.S" as "U.S" — and a prediction from elsewhere is read as ours are.
 */
export function answerCorrect(rule: ScoringRule, prediction: string, gold: string): boolean {
  return correctUnder(rule, normaliseAnswer(prediction), normaliseAnswer(gold));
}

/**
 * ChartBench calls its function with the reply stripped by `.strip('<｜end▁of▁sentence｜>')`,
 * which strips any of those characters from both ends, not the token: "Yes" reads "Y",
 * "10 seconds" reads "10 ".
 */
const CHARTBENCH_END_TOKEN_CHARS = /^[<\uff5cendofstc\u2581>]+|[<\uff5cendofstc\u2581>]+$/g;

/** `text.rstrip('%')` then `float()`; null where Python raises. */
const floatWithoutPercent = (text: string) => pythonFloat(text.replace(/%+$/, ''));

/**
 * ChartBench's relaxed_correctness(target, prediction) as its NQA loop calls it: the reply as
 * `target`, the gold as `prediction`. The gold's `%` is dropped (45% reads 45); a reply ending
 * in `%` may be either its number or a hundredth of it; the difference is divided by the
 * reply's value, and a reply of 0 is right for any gold ≤ 0.05 (negative ones too).
 */
function chartbenchCorrect(prediction: string, target: string): boolean {
  const reply = pythonStrip(prediction).replace(CHARTBENCH_END_TOKEN_CHARS, '');
  const gold = pythonStrip(target);
  const goldValue = gold.endsWith('%') ? floatWithoutPercent(gold) : pythonFloat(gold);
  const replyValue = reply.endsWith('%') ? floatWithoutPercent(reply) : pythonFloat(reply);
  if (goldValue === null || replyValue === null) return gold.toLowerCase() === reply.toLowerCase();
  const readings = reply.endsWith('%') ? [replyValue, replyValue / 100] : [replyValue];
  return readings.some((value) => (value === 0 ? goldValue : Math.abs(goldValue - value) / Math.abs(value)) <= RELAXED_TOLERANCE);
}
