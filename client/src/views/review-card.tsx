import type { ReviewRecord } from '@shared/api/review';
import { CRITERIA, CRITERION_LABELS } from '@shared/domain/review';
import { formatTime } from '../ui/format';

function seconds(ms: number): string {
  return ms < 90_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 60_000).toFixed(1)} min`;
}

/** One review as a card: decision, the three verdicts with notes, feedback and corrections. All text as text. */
export function ReviewCard({ review }: { review: ReviewRecord }) {
  return (
    <article className={`review-record decision-${review.decision}${review.retracted_at ? ' retracted' : ''}`} data-review-id={review.id}>
      <header className="review-record-head">
        <strong>{review.reviewer}</strong>{' '}
        <span className={`status-tag ${review.decision === 'accept' ? 'item-status-accepted' : 'item-status-rejected'}`}>{review.decision}</span>
        {review.retracted_at && (
          <span className="status-tag" title={`Retracted ${formatTime(review.retracted_at)}`}>
            retracted ({review.retract_reason ?? 'unknown'})
          </span>
        )}
      </header>
      <ul className="verdicts">
        {CRITERIA.map((criterion) => {
          const verdict = review.criteria[criterion];
          return (
            <li key={criterion} className={verdict.pass ? 'verdict-pass' : 'verdict-fail'}>
              <span className="verdict-mark">{verdict.pass ? '✓' : '✗'}</span> {CRITERION_LABELS[criterion]}
              {verdict.note && <span className="muted"> — {verdict.note}</span>}
            </li>
          );
        })}
      </ul>
      {review.feedback && <p className="prewrap review-feedback">{review.feedback}</p>}
      {review.corrected_answer !== null && (
        <p className="small">
          Corrected answer: <span className="mono">{review.corrected_answer}</span>
        </p>
      )}
      {review.corrected_question !== null && <p className="small">Corrected question: {review.corrected_question}</p>}
      <p className="muted small">
        {review.complexity !== null && <>complexity {review.complexity} · </>}
        {seconds(review.time_spent_ms)} · <time dateTime={review.created_at}>{formatTime(review.created_at)}</time>
      </p>
    </article>
  );
}
