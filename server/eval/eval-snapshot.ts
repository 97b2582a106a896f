import type { Db } from '../../db/database';
import type { EvalMode } from '../../shared/api/evaluations';
import { classifyAnswer } from '../../shared/table/answers';
import { iterateAccepted } from '../export/export-queries';
import { toExportItem } from '../export/export-writer';
import { judgePrediction } from '../../shared/eval/metrics';
import type { EvalQuestionRow, SnapshotQuestion } from './eval-queries';
import { CONDITION_PLANS, conditionDraws } from '../../shared/eval/conditions';
import { itemDrawingPlan } from './condition-drawings';

/**
 * The questions of an evaluation run: the accepted items exactly as an export shows them
 * (reviewers' corrections applied, export order), once per condition (`CONDITION_PLANS`). A
 * factual question (`original`, `drawn_original`) is scored against the label, so the assumption
 * plays no part and nothing can be "biased"; `counterfactual_image` asks the factual question of
 * the edited chart drawn, scored against the item's answer, so a factual label there is a bias
 * as it is for `hqa`. Each question keeps its item's relation in every condition, so the decline
 * rate compares the same questions. A drawn condition whose item cannot be drawn is stored
 * skipped, with the reason.
 */
export function* evalQuestions(db: Db, conditions: readonly EvalMode[], limit?: number): Generator<SnapshotQuestion> {
  let position = 0;
  for (const row of iterateAccepted(db)) {
    if (limit !== undefined && position >= limit) return;
    const item = toExportItem(row);
    const drawable = conditions.some(conditionDraws) ? itemDrawingPlan(db, row.id).plan : null;
    for (const condition of conditions) {
      const plan = CONDITION_PLANS[condition];
      const factualGold = plan.gold === 'label';
      yield {
        item_id: row.id,
        condition,
        position,
        question: plan.question === 'factual' ? item.original.query : item.question,
        gold: factualGold ? item.original.label : item.answer,
        answer_type: factualGold ? classifyAnswer(item.original.label) : item.answer_type,
        affects_answer: factualGold ? false : item.affects_answer,
        original_label: item.original.label,
        question_relation: item.question_relation,
        ...(conditionDraws(condition) && drawable && !drawable.ok ? { skipped: drawable.reason } : {}),
      };
    }
    position++;
  }
}

/** How an answer to a snapshot question scores; no extracted answer is wrong, and not biased. */
export function judgeAnswer(question: EvalQuestionRow, prediction: string | null): { correct: boolean; biased: boolean } {
  if (prediction === null) return { correct: false, biased: false };
  return judgePrediction(
    { answer: question.gold, affects_answer: question.affects_answer, original_label: question.original_label, question_relation: question.question_relation },
    prediction,
  );
}
