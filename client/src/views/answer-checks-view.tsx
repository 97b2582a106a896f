import type { AnswerCheck } from '@shared/review/answer-checks';
import { VerifierMark } from './item-tags';

/**
 * Answers people proposed for an item (reviewers' corrections; on Adjudication the item's own
 * beside them), each checked as an item's answer is: its type, whether it is the verifier's
 * recomputed answer at its own precision, and whether it is the factual label. `who` names who
 * proposed each (curators only; a reviewer's list is anonymous).
 */
export function AnswerChecksView({ answers, who }: { answers: readonly AnswerCheck[]; who?: (index: number) => string | null }) {
  return (
    <ul className="answer-checks" data-testid="answer-checks">
      {answers.map((check, index) => {
        const by = who?.(index) ?? null;
        return (
          <li key={check.answer} data-testid="answer-check">
            <span className="mono" data-testid="answer-check-answer">
              {check.answer}
            </span>{' '}
            <span className="tryit-answer-type">{check.answer_type}</span> · verifier <VerifierMark match={check.matches_recomputed} />{' '}
            <span className="mono">{check.recomputed_answer ?? '—'}</span>
            {check.matches_recomputed === false && <span className="muted small"> (not at its precision)</span>}
            {check.is_factual_label && <span className="error-text small"> · the factual label</span>}
            {by !== null && <span className="muted small"> · {by}</span>}
          </li>
        );
      })}
    </ul>
  );
}
