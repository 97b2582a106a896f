import type { Db } from '../../db/database';
import type { EvalMode } from '../../shared/api/evaluations';
import { classifyAnswer } from '../../shared/table/answers';
import { iterateAccepted } from '../export/export-queries';
import { toExportItem } from '../export/export-writer';
import { judgePrediction } from '../../shared/eval/metrics';
import type { EvalQuestionRow } from './eval-queries';

/**
 * The questions of an evaluation run: the accepted items exactly as an export shows them
 * (reviewers' corrections applied, export order). `original` asks each item's factual question
 * and scores against its label — ChartQA's own task on the same charts, the decline rate's
 * baseline — so the assumption plays no part and nothing can be "biased". Each question keeps
 * its item's relation in both modes, so the decline rate compares the same questions.
 */
export function* evalQuestions(db: Db, mode: EvalMode, limit?: number): Generator<EvalQuestionRow> {
  let position = 0;
  for (const row of iterateAccepted(db)) {
    if (limit !== undefined && position >= limit) return;
    const item = toExportItem(row);
    yield mode === 'original'
      ? {
          item_id: row.id,
          position,
          question: item.original.query,
          gold: item.original.label,
          answer_type: classifyAnswer(item.original.label),
          affects_answer: false,
          original_label: item.original.label,
          question_relation: item.question_relation,
        }
      : {
          item_id: row.id,
          position,
          question: item.question,
          gold: item.answer,
          answer_type: item.answer_type,
          affects_answer: item.affects_answer,
          original_label: item.original.label,
          question_relation: item.question_relation,
        };
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
