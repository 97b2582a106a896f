import type { RefObject } from 'react';
import type { ItemDetail } from '@shared/api/items';
import { CRITERIA, CRITERION_LABELS, type Criterion, type Decision } from '@shared/domain/review';
import type { FieldErrors } from '../../ui/form-errors';
import { suggestedDecision, type ReviewDraft } from './review-draft';
import { REVIEW_KEYS, type ReviewKeyName } from './review-keys';

/** The fields the page's keys put the cursor in. */
export type ReviewFormRefs = {
  feedbackRef: RefObject<HTMLTextAreaElement | null>;
  answerRef: RefObject<HTMLInputElement | null>;
  questionRef: RefObject<HTMLTextAreaElement | null>;
  noteRefs: Record<Criterion, RefObject<HTMLInputElement | null>>;
};

type ReviewFormProps = {
  item: ItemDetail;
  draft: ReviewDraft;
  onChange: (change: (draft: ReviewDraft) => ReviewDraft) => void;
  errors: FieldErrors;
  onDecide: (decision: Decision) => void;
  onSkip: () => void;
} & ReviewFormRefs;

const CRITERION_KEYS: Record<Criterion, ReviewKeyName> = { rationality: 'rationality', correctness: 'correctness', layout: 'layout' };

const CRITERION_HINTS: Record<Criterion, string> = {
  rationality: 'The assumption is sensible and the question clear.',
  correctness: 'The answer is right for the assumed chart.',
  layout: 'The assumption respects the chart’s structure.',
};

/** The id of the one message saying why a decision was refused. */
export const REFUSAL_ID = 'review-refusal';

export function Key({ name }: { name: ReviewKeyName }) {
  return <kbd className="key-hint">{REVIEW_KEYS[name].key}</kbd>;
}

function setCriterion(draft: ReviewDraft, criterion: Criterion, change: Partial<ReviewDraft['criteria'][Criterion]>): ReviewDraft {
  return { ...draft, criteria: { ...draft.criteria, [criterion]: { ...draft.criteria[criterion], ...change } } };
}

/** "you failed answer correctness, you corrected the answer to “42” and you wrote feedback". */
function listed(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}

/**
 * The question an accept carrying doubts asks (acceptConcerns: a failed criterion, feedback, a
 * correction); its keys are the workspace's (Enter or y accepts, Esc or n goes back).
 */
export function AcceptConfirm({ itemId, concerns, onAccept, onBack }: { itemId: number; concerns: string[]; onAccept: () => void; onBack: () => void }) {
  const said = listed(concerns);
  return (
    <div className="notice notice-warning accept-confirm" role="alertdialog" aria-labelledby="accept-confirm-text" data-testid="accept-confirm">
      <p id="accept-confirm-text">
        <strong>Accept item #{itemId}?</strong> {said.charAt(0).toUpperCase()}{said.slice(1)}.
      </p>
      <div className="review-actions">
        <button type="button" className="primary" onClick={onAccept}>
          Accept anyway <kbd className="key-hint">Enter</kbd>
        </button>
        <button type="button" onClick={onBack}>
          Back to the review <kbd className="key-hint">Esc</kbd>
        </button>
      </div>
      <p className="muted small">To reject instead: go back, fail a criterion (1–3) and press r.</p>
    </div>
  );
}

/** Turns a criterion between pass and fail. */
export function toggleCriterion(draft: ReviewDraft, criterion: Criterion): ReviewDraft {
  return setCriterion(draft, criterion, { pass: !draft.criteria[criterion].pass });
}

/** Complexity 1 → 5, then back to none. */
export function cycleComplexity(draft: ReviewDraft): ReviewDraft {
  const next = draft.complexity === null ? 1 : draft.complexity >= 5 ? null : draft.complexity + 1;
  return { ...draft, complexity: next };
}

/** The three criteria, feedback, corrections, complexity and the decision; every action has its key. */
export function ReviewForm({ item, draft, onChange, errors, onDecide, onSkip, feedbackRef, answerRef, questionRef, noteRefs }: ReviewFormProps) {
  const suggested = suggestedDecision(draft);
  // A refused decision is said once, above the form (REFUSAL_ID); the fields it is about are marked.
  const invalid = (field: string) => (errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': REFUSAL_ID } : {});

  return (
    <form
      className="review-form"
      aria-label="Your review"
      // Enter in a field must not decide anything: decisions are their keys or Ctrl+Enter.
      onSubmit={(event) => event.preventDefault()}
      noValidate
    >
      <fieldset className="review-criteria" {...invalid('criteria')}>
        <legend>Criteria</legend>
        {CRITERIA.map((criterion) => {
          const { pass, note } = draft.criteria[criterion];
          return (
            <div key={criterion} className={`criterion ${pass ? 'criterion-pass' : 'criterion-fail'}`} data-criterion={criterion}>
              <button
                type="button"
                role="switch"
                aria-checked={pass}
                className="criterion-toggle"
                title={CRITERION_HINTS[criterion]}
                onClick={() => onChange((d) => toggleCriterion(d, criterion))}
              >
                <Key name={CRITERION_KEYS[criterion]} /> <span className="criterion-name">{CRITERION_LABELS[criterion]}</span>
                <span className="criterion-verdict">{pass ? '✓ pass' : '✗ fail'}</span>
              </button>
              <input
                ref={noteRefs[criterion]}
                type="text"
                className="criterion-note"
                aria-label={`Note on ${CRITERION_LABELS[criterion].toLowerCase()}`}
                placeholder="note (optional)"
                maxLength={2000}
                value={note}
                onChange={(event) => onChange((d) => setCriterion(d, criterion, { note: event.target.value }))}
              />
            </div>
          );
        })}
      </fieldset>

      <div className="field">
        <label htmlFor="review-feedback">
          Feedback <Key name="feedback" /> <span className="muted">(required to reject)</span>
        </label>
        <textarea
          id="review-feedback"
          ref={feedbackRef}
          rows={3}
          maxLength={4000}
          value={draft.feedback}
          onChange={(event) => onChange((d) => ({ ...d, feedback: event.target.value }))}
          {...invalid('feedback')}
        />
      </div>

      <div className="field">
        <label htmlFor="review-corrected-answer">
          Corrected answer <Key name="answer" />
        </label>
        <input
          id="review-corrected-answer"
          ref={answerRef}
          type="text"
          className="mono"
          autoComplete="off"
          maxLength={200}
          placeholder={item.answer}
          value={draft.corrected_answer}
          onChange={(event) => onChange((d) => ({ ...d, corrected_answer: event.target.value }))}
          {...invalid('corrected_answer')}
        />
      </div>

      <div className="field">
        <label htmlFor="review-corrected-question">
          Corrected question <Key name="question" />
        </label>
        <textarea
          id="review-corrected-question"
          ref={questionRef}
          rows={2}
          maxLength={1000}
          placeholder="unchanged"
          value={draft.corrected_question}
          onChange={(event) => onChange((d) => ({ ...d, corrected_question: event.target.value }))}
          {...invalid('corrected_question')}
        />
      </div>

      <fieldset className="review-complexity">
        <legend>
          Complexity <Key name="complexity" /> <span className="muted">(optional: how hard to answer)</span>
        </legend>
        {[1, 2, 3, 4, 5].map((level) => (
          <label key={level} className="complexity-option">
            <input
              type="radio"
              name="complexity"
              value={level}
              checked={draft.complexity === level}
              onChange={() => onChange((d) => ({ ...d, complexity: level }))}
            />
            {level}
          </label>
        ))}
        <button type="button" className="link-button" onClick={() => onChange((d) => ({ ...d, complexity: null }))} disabled={draft.complexity === null}>
          none
        </button>
      </fieldset>

      <div className="review-actions">
        <button type="button" className={`primary decide-accept${suggested === 'accept' ? ' suggested' : ''}`} onClick={() => onDecide('accept')}>
          Accept <Key name="accept" />
        </button>
        <button type="button" className={`decide-reject${suggested === 'reject' ? ' suggested' : ''}`} onClick={() => onDecide('reject')}>
          Reject <Key name="reject" />
        </button>
        <button type="button" onClick={onSkip}>
          Skip <Key name="skip" />
        </button>
      </div>
      <p className="muted small review-suggested" data-testid="review-suggested">
        <kbd>Ctrl</kbd>+<kbd>Enter</kbd> submits: <strong>{suggested}</strong>
      </p>
    </form>
  );
}
