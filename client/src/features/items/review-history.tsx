import { Link } from 'react-router';
import { errorMessage } from '../../api/http';
import { formatTime } from '../../ui/format';
import { ReviewCard } from '../../views/review-card';
import { useItemHistory } from '../../api/items-api';

const SOURCE_LABELS = {
  model: 'generated',
  review: 'reviewer’s correction',
  adjudication: 'adjudication',
  undo: 'undone',
  requeue: 're-queued',
} as const;

/** Every review of the item, retracted ones too, and how its final answer came about (curators). */
export function ReviewHistory({ itemId }: { itemId: number }) {
  const history = useItemHistory(itemId);
  if (history.isPending) return <p className="muted">Loading the review history…</p>;
  if (history.isError) {
    return (
      <p className="error" role="alert">
        Could not load the review history: {errorMessage(history.error)}
      </p>
    );
  }
  const { reviews, answers } = history.data;
  return (
    <div className="review-history" data-testid="review-history">
      {reviews.length === 0 ? (
        <p className="muted">No reviews yet.</p>
      ) : (
        <div className="review-history-list">
          {reviews.map((review) => (
            <div key={review.id}>
              <ReviewCard review={review} />
              <Link className="small" to={`/items?reviewer=${review.reviewer_id}`}>
                Items reviewed by {review.reviewer}
              </Link>
            </div>
          ))}
        </div>
      )}
      <h3>Answer history</h3>
      {answers.length === 0 ? (
        <p className="muted">The answer and question are as generated.</p>
      ) : (
        <table className="data-grid answer-history" data-testid="answer-history">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Source</th>
              <th scope="col">By</th>
              <th scope="col">Answer</th>
              <th scope="col">Question</th>
            </tr>
          </thead>
          <tbody>
            {answers.map((entry, index) => (
              <tr key={index}>
                <td className="small">
                  <time dateTime={entry.created_at}>{formatTime(entry.created_at)}</time>
                </td>
                <td>{SOURCE_LABELS[entry.source]}</td>
                <td>{entry.user ?? <span className="muted">—</span>}</td>
                <td className="mono">{entry.answer}</td>
                <td className="question-cell">{entry.question}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
