import type { ItemDetail } from '../../shared/api/items';
import type { AnswerChoice, ReviewRecord } from '../../shared/api/review';
import { checkAnswer } from '../../shared/review/answer-checks';
import { sameAnswer } from '../../shared/table/answer-compare';

/**
 * The answers an adjudicator chooses between: the item's own first, then each distinct
 * correction, each checked (answer-checks.ts) and with the reviewers whose standing review gives
 * it — a correction, or an accept that keeps the item's answer. A rejection without a
 * correction gives none.
 */
export function answerChoices(item: ItemDetail, reviews: readonly ReviewRecord[]): AnswerChoice[] {
  const choices: AnswerChoice[] = [{ ...checkAnswer(item.answer, item), source: 'item', reviewers: [] }];
  for (const review of reviews) {
    const answer = review.corrected_answer ?? (review.decision === 'accept' ? item.answer : null);
    if (answer === null) continue;
    let choice = choices.find((known) => sameAnswer(known.answer, answer));
    if (!choice) {
      choice = { ...checkAnswer(answer, item), source: 'review', reviewers: [] };
      choices.push(choice);
    }
    choice.reviewers.push(review.reviewer);
  }
  return choices;
}
