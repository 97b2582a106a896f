import { Link } from 'react-router';
import type { FeedbackEntry } from '@shared/api/reflection';
import { CRITERION_LABELS } from '@shared/domain/review';

const DECISION_STATUS = { accept: 'accepted', reject: 'rejected' } as const;

/** One reviewer's words on an item: criterion notes, the written feedback, a corrected answer. */
function Words({ entry }: { entry: FeedbackEntry }) {
  const parts = [
    { label: 'Notes', text: entry.notes },
    { label: 'Feedback', text: entry.comment },
    { label: 'Corrected answer', text: entry.correction },
  ].filter((part) => part.text.trim() !== '');
  if (parts.length === 0) return <span className="muted">—</span>;
  return (
    <dl className="feedback-words">
      {parts.map((part) => (
        <div key={part.label}>
          <dt>{part.label}</dt>
          <dd>{part.text}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The standing reviews of the proposal's items, newest first: what a reflection would answer. */
export function ProposalFeedback({ feedback }: { feedback: FeedbackEntry[] }) {
  if (feedback.length === 0) return <p className="empty">No item from this proposal has been reviewed yet.</p>;
  return (
    <div className="table-scroll">
      <table className="data-grid feedback-table" data-testid="proposal-feedback">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Question</th>
            <th scope="col">Failed criteria</th>
            <th scope="col">Reviewer’s words</th>
          </tr>
        </thead>
        <tbody>
          {feedback.map((entry, index) => (
            <tr key={`${entry.item_id}-${index}`} data-item-id={entry.item_id} data-testid="feedback-entry">
              <th scope="row">
                <Link to={`/items/${entry.item_id}`}>#{entry.item_id}</Link>{' '}
                <span className={`status-tag item-status-${DECISION_STATUS[entry.decision]}`}>{entry.decision}</span>
              </th>
              <td className="question-cell">{entry.question}</td>
              <td>
                {entry.failed.length === 0 ? (
                  <span className="muted">none</span>
                ) : (
                  <span className="bias-flags">
                    {entry.failed.map((criterion) => (
                      <span key={criterion} className="bias-flag">
                        {CRITERION_LABELS[criterion]}
                      </span>
                    ))}
                  </span>
                )}
              </td>
              <td className="feedback-cell">
                <Words entry={entry} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
