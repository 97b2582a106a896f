import { z } from 'zod';
import { goldAnswerAgrees, sameAnswer } from '../table/answer-compare';
import { AnswerTypeSchema, classifyAnswer, type AnswerType } from '../table/answers';

/**
 * A person's answer — a reviewer's corrected answer, an adjudicator's final answer — is gold:
 * it is checked as an item's answer is (its type, the verifier's recomputation, the factual
 * label) and it becomes the item's answer only when the reviewers agree on it (`agreedAnswer`)
 * or an adjudicator picks it.
 */

/** A proposed answer beside what the verifier says of it: shown to the item's next reviewers and to curators. */
export const AnswerCheckSchema = z.object({
  answer: z.string(),
  answer_type: AnswerTypeSchema,
  /** The verifier's recomputed answer for the item; null when nothing was recomputed. */
  recomputed_answer: z.string().nullable(),
  /** The answer agrees with the recomputed one at the answer's own precision (never the 5 % model tolerance); null: nothing recomputed. */
  matches_recomputed: z.boolean().nullable(),
  /** The answer is the factual question's label: what a model answering from memory gives. */
  is_factual_label: z.boolean(),
});
export type AnswerCheck = z.infer<typeof AnswerCheckSchema>;

/** The checks of `answer` for an item with this verdict and factual label. */
export function checkAnswer(answer: string, item: { verifier: { recomputed_answer: string | null }; factual_label: string }): AnswerCheck {
  const recomputed = item.verifier.recomputed_answer;
  return {
    answer,
    answer_type: classifyAnswer(answer),
    recomputed_answer: recomputed,
    matches_recomputed: recomputed === null ? null : goldAnswerAgrees(recomputed, answer),
    is_factual_label: sameAnswer(answer, item.factual_label),
  };
}

/** How ChartQA writes a number: what a numeric item's answer must look like. */
const CHARTQA_NUMBER = 'a number as ChartQA writes one (12, -3, 3.5, 1,200 or 45%)';

/**
 * Why `answer` cannot be the answer of an item whose answer is of type `expected`, or null: a
 * numeric item's answer is a number, a Yes/No item's Yes or No. A text item (a label) takes
 * any text, a year or a count among them.
 */
export function answerTypeProblem(answer: string, expected: AnswerType): string | null {
  const type = classifyAnswer(answer);
  if ((expected === 'integer' || expected === 'decimal') && type !== 'integer' && type !== 'decimal') {
    return `the item's answer is a number, so this must be ${CHARTQA_NUMBER}, not ${JSON.stringify(answer)}`;
  }
  if (expected === 'boolean' && type !== 'boolean') return `the item's answer is Yes or No, so this must be Yes or No, not ${JSON.stringify(answer)}`;
  return null;
}

export type AnswerAgreement = { agreed: true; answer: string | null } | { agreed: false; answers: string[] };

/**
 * The answer the accepting reviews agree on. Each accepting review gives an answer: its
 * correction, or (null) the item's answer as it is. They agree when all are the same answer
 * (`sameAnswer`: `1,200` is `1200`); `answer` is then the correction to apply, or null when
 * it is the item's own answer. One accepting review (k = 1) always agrees with itself. When
 * they differ, `answers` lists each distinct one in the order the reviews gave them, for the
 * adjudicator to choose from.
 */
export function agreedAnswer(itemAnswer: string, corrections: readonly (string | null)[]): AnswerAgreement {
  const answers: string[] = [];
  for (const correction of corrections) {
    const answer = correction ?? itemAnswer;
    if (!answers.some((known) => sameAnswer(known, answer))) answers.push(answer);
  }
  const [only, ...others] = answers;
  if (only === undefined) return { agreed: true, answer: null };
  if (others.length > 0) return { agreed: false, answers };
  return { agreed: true, answer: sameAnswer(only, itemAnswer) ? null : only };
}
