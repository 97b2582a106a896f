import { z } from 'zod';
import { textAnswersAgree } from '../table/answer-compare';
import type { DataTable } from '../table/model';

/**
 * Bias guards: the output bias the benchmark measures (answering with the factual label
 * instead of reasoning through the assumption), flagged before a reviewer spends time on it.
 *
 * - `unchanged_answer`: the item says the assumption changes the answer, yet its answer
 *   equals the factual label.
 * - `changed_recomputed`: the item says the assumption does not change the answer, yet the
 *   verifier's recomputed answer differs from the answer before the assumption — the item's
 *   program on the unedited table when it runs there (an item may ask another question than the
 *   factual one it came from), else the factual label.
 *
 * Answers compare as the verifier compares them (answer-compare.ts): a label of the table —
 * a year included — as a label, so 2018 is not "within 5%" of 2019; plain numbers relaxed.
 */
export const BIAS_FLAGS = ['unchanged_answer', 'changed_recomputed'] as const;
export const BiasFlagSchema = z.enum(BIAS_FLAGS);
export type BiasFlag = z.infer<typeof BiasFlagSchema>;

export function biasFlags(input: {
  affectsAnswer: boolean;
  answer: string;
  factualLabel: string;
  recomputedAnswer: string | null;
  /** The item's program on the table before the edit; null when it does not run there. */
  uneditedAnswer?: string | null;
  /** The tables the item is over: their labels compare as labels. */
  tables?: readonly DataTable[];
}): BiasFlag[] {
  const flags: BiasFlag[] = [];
  const tables = input.tables ?? [];
  const agree = (a: string, b: string) => textAnswersAgree(a, b, tables);
  // As the verifier asks it: would the factual label, given as the answer, score on this item?
  if (input.affectsAnswer && agree(input.factualLabel, input.answer)) flags.push('unchanged_answer');
  const before = input.uneditedAnswer ?? input.factualLabel;
  if (!input.affectsAnswer && input.recomputedAnswer !== null && !agree(before, input.recomputedAnswer)) {
    flags.push('changed_recomputed');
  }
  return flags;
}
