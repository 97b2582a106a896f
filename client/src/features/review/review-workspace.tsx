import { useEffect, useMemo, useRef, useState } from 'react';
import type { SubmitReviewRequest } from '@shared/api/review';
import type { Criterion, Decision } from '@shared/domain/review';
import { formatTime } from '../../ui/format';
import type { FieldErrors } from '../../ui/form-errors';
import { counterfactualOf } from '../../views/counterfactual';
import { groupCounterfactualOf, itemGroupOf } from '../../views/item-group-charts';
import { ItemThread } from '../../views/item-thread';
import { ItemContext } from './item-context';
import { buildReview, clearDraft, emptyDraft, isPristine, loadDraft, saveDraft, suggestedDecision, type ReviewDraft } from './review-draft';
import { AcceptConfirm, acceptNeedsConfirm, cycleComplexity, ReviewForm, toggleCriterion, type ReviewFormRefs } from './review-form';
import { useKeyHandler } from './review-keys';
import type { ShownTask } from './review-session';

type WorkspaceProps = {
  shown: ShownTask;
  userId: number;
  /** While the key overlay is open, the item's keys rest. */
  keysActive: boolean;
  busy: boolean;
  onSubmit: (body: SubmitReviewRequest, draft: ReviewDraft) => void;
  onSkip: () => void;
  onClaimAgain: () => void;
};

function focusEnd(element: HTMLInputElement | HTMLTextAreaElement | null): void {
  if (!element) return;
  element.focus();
  element.setSelectionRange(element.value.length, element.value.length);
}

/** The first field an error is about, to put the cursor where the fix goes. */
const ERROR_FOCUS_ORDER = ['feedback', 'corrected_answer', 'corrected_question'] as const;

/**
 * One item under review: its context on the left, the form on the right. Mounted per item (keyed
 * by id), so the draft, errors and timer start fresh, from the stored draft if there is one.
 */
export function ReviewWorkspace({ shown, userId, keysActive, busy, onSubmit, onSkip, onClaimAgain }: WorkspaceProps) {
  const { task } = shown;
  const item = task.item;
  const [initial] = useState(() => {
    const stored = loadDraft(userId, item.id);
    return { draft: stored ?? emptyDraft(), restored: stored !== null && !isPristine(stored) };
  });
  const [draft, setDraft] = useState<ReviewDraft>(initial.draft);
  const [errors, setErrors] = useState<FieldErrors>({});
  const group = itemGroupOf(task, item);
  // A group item's edit names its chart: it is applied over the group's tables, in order.
  const outcome = useMemo(() => (group ? groupCounterfactualOf(group, item.edit) : counterfactualOf(task.chart.data_table, item.edit)), [group, task.chart.data_table, item.edit]);
  const lastToggled = useRef<Criterion>('rationality');
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const answerRef = useRef<HTMLInputElement>(null);
  const questionRef = useRef<HTMLTextAreaElement>(null);
  const rationalityNoteRef = useRef<HTMLInputElement>(null);
  const correctnessNoteRef = useRef<HTMLInputElement>(null);
  const layoutNoteRef = useRef<HTMLInputElement>(null);
  const refs: ReviewFormRefs = {
    feedbackRef,
    answerRef,
    questionRef,
    noteRefs: { rationality: rationalityNoteRef, correctness: correctnessNoteRef, layout: layoutNoteRef },
  };

  // Time on this item: earlier visits (from the draft) plus this one.
  const timeSpent = () => initial.draft.elapsed_ms + (performance.now() - shown.shownAt);

  useEffect(() => {
    if (isPristine(draft)) clearDraft(userId, item.id);
    else saveDraft(userId, item.id, { ...draft, elapsed_ms: initial.draft.elapsed_ms + (performance.now() - shown.shownAt) });
  }, [draft, userId, item.id, initial.draft.elapsed_ms, shown.shownAt]);

  /** Ctrl+Enter asked whether to accept despite the feedback (acceptNeedsConfirm). */
  const [confirmingAccept, setConfirmingAccept] = useState(false);

  const change = (update: (draft: ReviewDraft) => ReviewDraft) => {
    setDraft(update);
    setErrors({});
    setConfirmingAccept(false);
  };

  const decide = (decision: Decision) => {
    const result = buildReview(draft, decision, item, timeSpent());
    if (!result.ok) {
      setErrors(result.errors);
      const field = ERROR_FOCUS_ORDER.find((name) => result.errors[name]);
      if (field === 'feedback') feedbackRef.current?.focus();
      else if (field === 'corrected_answer') answerRef.current?.focus();
      else if (field === 'corrected_question') questionRef.current?.focus();
      return;
    }
    onSubmit(result.body, draft);
  };

  const acceptAnyway = () => {
    setConfirmingAccept(false);
    decide('accept');
  };

  const toggle = (criterion: Criterion) => {
    lastToggled.current = criterion;
    change((d) => toggleCriterion(d, criterion));
  };

  /** `q` starts the corrected question from the original, the usual case being a small fix. */
  const editQuestion = () => {
    if (draft.corrected_question === '') change((d) => ({ ...d, corrected_question: item.question }));
    // After the state above has reached the field.
    window.requestAnimationFrame(() => focusEnd(questionRef.current));
  };

  useKeyHandler((key, { typing, event }) => {
    if (!keysActive) return false;
    if (confirmingAccept) {
      if (key === 'Enter' || key === 'Ctrl+Enter' || key === 'y') acceptAnyway();
      else if (key === 'Escape' || key === 'n') setConfirmingAccept(false);
      // Every other key rests while the question is open (a letter would decide something else); Tab still moves.
      return key !== 'Tab';
    }
    if (key === 'Ctrl+Enter') {
      if (acceptNeedsConfirm(draft)) setConfirmingAccept(true);
      else decide(suggestedDecision(draft));
      return true;
    }
    if (typing) {
      if (key !== 'Escape' || !(event.target instanceof HTMLElement)) return false;
      event.target.blur();
      return true;
    }
    if (event.ctrlKey || event.metaKey) return false;
    const actions: Partial<Record<string, () => void>> = {
      '1': () => toggle('rationality'),
      '2': () => toggle('correctness'),
      '3': () => toggle('layout'),
      n: () => focusEnd(refs.noteRefs[lastToggled.current].current),
      a: () => decide('accept'),
      r: () => decide('reject'),
      s: onSkip,
      f: () => focusEnd(feedbackRef.current),
      c: () => focusEnd(answerRef.current),
      q: editQuestion,
      x: () => change(cycleComplexity),
    };
    const action = actions[key];
    if (!action) return false;
    action();
    return true;
  });

  const errorList = Object.entries(errors).filter((entry): entry is [string, string] => entry[1] !== undefined);

  return (
    <div className="review-workspace" data-item-id={item.id} data-testid="review-workspace">
      <ItemContext task={task} group={group} outcome={outcome} />
      <aside className="review-panel" aria-label="Your review">
        {shown.expired && (
          <div className="notice notice-warning lease-expired" role="alert" data-testid="lease-expired">
            <p>
              <strong>Your lease on this item ran out</strong> and it went back to the queue. A review is stored only under a live
              lease: claim it again to submit (your draft is kept).
            </p>
            <button type="button" onClick={onClaimAgain} disabled={busy}>
              Claim again
            </button>
          </div>
        )}
        {initial.restored && (
          <p className="small muted draft-restored" data-testid="draft-restored">
            Your unsent draft of this item was restored.
          </p>
        )}
        {errorList.length > 0 && (
          <div className="error review-errors" role="alert" data-testid="review-errors">
            {errorList.map(([field, message]) => (
              <p key={field}>{message}</p>
            ))}
          </div>
        )}
        {confirmingAccept && <AcceptConfirm onAccept={acceptAnyway} onBack={() => setConfirmingAccept(false)} />}
        <ReviewForm item={item} draft={draft} onChange={change} errors={errors} onDecide={decide} onSkip={onSkip} {...refs} />
        <p className="muted small lease-line">
          Lease until <time dateTime={task.lease_expires_at}>{formatTime(task.lease_expires_at)}</time>, renewed while this page is open.
        </p>
        <ItemThread itemId={item.id} />
      </aside>
    </div>
  );
}
