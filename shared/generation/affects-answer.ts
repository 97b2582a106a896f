import { relaxedCorrect } from '../table/answers';
import type { VerifierResult } from '../table/verify';

/**
 * Whether an item's assumption changes the factual answer, as the verifier finds it: the item's
 * program on the table before and after the edit. Without both answers (no edit, or the program
 * fails on one of the tables) the item's answer is held against the factual label instead.
 * Hand-written items get this, not a writer's checkbox: a claim the verifier can check is not asked.
 */
export function affectsAnswer(verifier: Pick<VerifierResult, 'answer_unchanged'>, answer: string, factualLabel: string): boolean {
  if (verifier.answer_unchanged !== null) return !verifier.answer_unchanged;
  return !relaxedCorrect(answer, factualLabel);
}
