import { CRITERIA, CRITERION_LABELS } from '@shared/domain/review';
import { errorMessage } from '../../api/http';
import { Markdown } from '../../ui/markdown';
import { useReviewGuidelines } from './guidelines-api';
import { Key } from './review-form';

/**
 * The guidelines for the three criteria, as admins wrote them (Markdown), above the item. Not
 * modal: the review's keys keep working while it is open, so a reviewer reads and decides at
 * once; `g` or the button hides it.
 */
export function GuidelinesPanel({ onClose }: { onClose: () => void }) {
  const guidelines = useReviewGuidelines();
  return (
    <section className="review-guidelines" id="review-guidelines" aria-labelledby="review-guidelines-heading" data-testid="review-guidelines">
      <header className="review-guidelines-head">
        <h2 id="review-guidelines-heading">Guidelines</h2>
        <button type="button" className="link-button" onClick={onClose}>
          Hide <Key name="guidelines" />
        </button>
      </header>
      {guidelines.isPending ? (
        <p className="muted small">Loading the guidelines…</p>
      ) : guidelines.isError ? (
        <p className="error small" role="alert">
          Could not load the guidelines: {errorMessage(guidelines.error)}
        </p>
      ) : (
        <div className="review-guidelines-criteria">
          {CRITERIA.map((criterion) => (
            <section key={criterion} aria-label={`${CRITERION_LABELS[criterion]} guideline`} data-criterion={criterion}>
              <h3>
                <Key name={criterion} /> {CRITERION_LABELS[criterion]}
              </h3>
              {guidelines.data.guidelines[criterion].trim() === '' ? (
                <p className="muted small">No guideline written yet.</p>
              ) : (
                <Markdown source={guidelines.data.guidelines[criterion]} />
              )}
            </section>
          ))}
        </div>
      )}
    </section>
  );
}
