import { useEffect, useMemo, useRef, useState } from 'react';
import type { SubmitReviewRequest } from '@shared/api/review';
import type { Criterion, Decision } from '@shared/domain/review';
import { formatTime } from '../../ui/format';
import type { FieldErrors } from '../../ui/form-errors';
import { counterfactualOf } from '../../views/counterfactual';
import { groupCounterfactualOf, itemGroupOf } from '../../views/item-group-charts';
import { ItemThread } from '../../views/item-thread';
import { ItemContext } from './item-context';
import { ReviewCharts, zoomTargetOf, type ChartsView } from './review-charts';
import { acceptConcerns, buildReview, clearDraft, emptyDraft, isPristine, loadDraft, refusalMessage, saveDraft, suggestedDecision, type ReviewDraft } from './review-draft';
import { AcceptConfirm, cycleComplexity, Key, REFUSAL_ID, ReviewForm, toggleCriterion, type ReviewFormRefs } from './review-form';
import { useKeyHandler } from './review-keys';
import { LEASE_END_TEXT, type ShownTask } from './review-session';

type WorkspaceProps = {
  shown: ShownTask;
  userId: number;
  /** While the key overlay is open, the item's keys rest. */
  keysActive: boolean;
  busy: boolean;
  onSubmit: (body: SubmitReviewRequest, draft: ReviewDraft) => void;
  onSkip: () => void;
  onClaimAgain: () => void;
  /** A decision was tried on an item that was lost (its lease ran out, or decided elsewhere): say why nothing happens. */
  onLostDecision: () => void;
};

function focusEnd(element: HTMLInputElement | HTMLTextAreaElement | null): void {
  if (!element) return;
  element.focus();
  element.setSelectionRange(element.value.length, element.value.length);
}

/** A refused decision: the one message saying why, and the fields it is about (marked, not focused). */
type Refusal = { message: string; errors: FieldErrors };

/** An accept waiting on the reviewer's yes: what in it reads like doubt (any change to the draft drops it). */
type PendingAccept = { concerns: string[] };

/**
 * One item under review: its context on the left, the form on the right. Mounted per item (keyed
 * by id), so the draft, refusal, chart view and timer start fresh, from the stored draft if any.
 *
 * The keys can't be hijacked: a refused decision says why in one message and leaves the focus
 * where it was (moving it into a field made the next shortcut keys typed text), and an accept
 * carrying a failed criterion, feedback or a correction asks first.
 */
export function ReviewWorkspace({ shown, userId, keysActive, busy, onSubmit, onSkip, onClaimAgain, onLostDecision }: WorkspaceProps) {
  const { task } = shown;
  const item = task.item;
  const [initial] = useState(() => {
    const stored = loadDraft(userId, item.id);
    return { draft: stored ?? emptyDraft(), restored: stored !== null && !isPristine(stored) };
  });
  const [draft, setDraft] = useState<ReviewDraft>(initial.draft);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [pendingAccept, setPendingAccept] = useState<PendingAccept | null>(null);
  const [chartsView, setChartsView] = useState<ChartsView>({ showOriginal: false, zoomed: null });
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

  // Saved on every change; saved again when the item is decided in another tab, whose stored
  // review cleared the draft both tabs share: what this tab typed stays its draft.
  useEffect(() => {
    if (isPristine(draft)) clearDraft(userId, item.id);
    else saveDraft(userId, item.id, { ...draft, elapsed_ms: initial.draft.elapsed_ms + (performance.now() - shown.shownAt) });
  }, [draft, userId, item.id, initial.draft.elapsed_ms, shown.shownAt, shown.lost]);

  const change = (update: (draft: ReviewDraft) => ReviewDraft) => {
    setDraft(update);
    setRefusal(null);
    setPendingAccept(null);
  };

  const decide = (decision: Decision) => {
    setPendingAccept(null);
    if (shown.lost) {
      onLostDecision();
      return;
    }
    const result = buildReview(draft, decision, item, timeSpent());
    if (!result.ok) {
      // Said, not acted on: the focus stays where the reviewer had it.
      setRefusal({ message: refusalMessage(decision, result.errors), errors: result.errors });
      return;
    }
    setRefusal(null);
    const concerns = decision === 'accept' ? acceptConcerns(result.body) : [];
    if (concerns.length > 0) setPendingAccept({ concerns });
    else onSubmit(result.body, draft);
  };

  const acceptAnyway = () => {
    setPendingAccept(null);
    // Built again: the time spent runs until the reviewer's yes.
    const result = buildReview(draft, 'accept', item, timeSpent());
    if (result.ok) onSubmit(result.body, draft);
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

  const flip = () => setChartsView((view) => ({ ...view, showOriginal: !view.showOriginal }));
  const zoom = (zoomed: number | null) => setChartsView((view) => ({ ...view, zoomed }));

  useKeyHandler((key, { typing, event }) => {
    if (!keysActive) return false;
    if (pendingAccept) {
      if (key === 'Enter' || key === 'Ctrl+Enter' || key === 'y') acceptAnyway();
      else if (key === 'Escape' || key === 'n') setPendingAccept(null);
      // Every other key rests while the question is open (a letter would decide something else); Tab still moves.
      return key !== 'Tab';
    }
    if (key === 'Ctrl+Enter') {
      decide(suggestedDecision(draft));
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
      l: () => (shown.lost === 'expired' ? onClaimAgain() : undefined),
      z: () => zoom(zoomTargetOf(group, outcome)),
      t: flip,
    };
    const action = actions[key];
    if (!action) return false;
    action();
    return true;
  });

  return (
    <div className="review-workspace" data-item-id={item.id} data-testid="review-workspace" data-lost={shown.lost ?? undefined}>
      <ItemContext
        task={task}
        group={group}
        outcome={outcome}
        charts={<ReviewCharts task={task} group={group} outcome={outcome} view={chartsView} onFlip={flip} onZoom={zoom} />}
      />
      <aside className="review-panel" aria-label="Your review">
        {shown.lost === 'expired' && (
          <div className="notice notice-warning lease-expired" role="alert" data-testid="lease-expired">
            <p>
              <strong>Your lease on this item ran out</strong> and it went back to the queue. A review is stored only under a live
              lease: claim it again to submit (your draft is kept).
            </p>
            <button type="button" onClick={onClaimAgain} disabled={busy}>
              Claim again <Key name="claimAgain" />
            </button>
          </div>
        )}
        {(shown.lost === 'decided_by_k_change' || shown.lost === 'slot_removed_by_k_change') && (
          <div className="notice notice-warning lease-expired" role="alert" data-testid="lease-ended">
            <p>
              <strong>{LEASE_END_TEXT[shown.lost]}</strong> A review of it cannot be stored; what you wrote stays as its draft.
            </p>
            <button type="button" onClick={onSkip}>
              Next item <Key name="skip" />
            </button>
          </div>
        )}
        {shown.lost === 'decided' && (
          <div className="notice notice-warning lease-expired" role="alert" data-testid="decided-elsewhere">
            <p>
              <strong>Item #{item.id} was decided elsewhere</strong>: your review of it was stored from another tab or window. A second
              review cannot be stored; what you wrote here stays as its draft.
            </p>
            <button type="button" onClick={onSkip}>
              Next item <Key name="skip" />
            </button>
          </div>
        )}
        {initial.restored && (
          <p className="small muted draft-restored" data-testid="draft-restored">
            Your unsent draft of this item was restored.
          </p>
        )}
        {refusal && (
          <p className="error review-errors" role="alert" id={REFUSAL_ID} data-testid="review-errors">
            {refusal.message}
          </p>
        )}
        {pendingAccept && <AcceptConfirm itemId={item.id} concerns={pendingAccept.concerns} onAccept={acceptAnyway} onBack={() => setPendingAccept(null)} />}
        <ReviewForm item={item} draft={draft} onChange={change} errors={refusal?.errors ?? {}} onDecide={decide} onSkip={onSkip} {...refs} />
        <p className="muted small lease-line">
          Lease until <time dateTime={task.lease_expires_at}>{formatTime(task.lease_expires_at)}</time>, renewed while this page is open.
        </p>
        <ItemThread itemId={item.id} />
      </aside>
    </div>
  );
}
