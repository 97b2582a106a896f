import { z } from 'zod';
import { SubmitReviewRequestSchema, type SubmitReviewRequest } from '@shared/api/review';
import { CRITERIA, CRITERION_LABELS, type Criterion, type Decision } from '@shared/domain/review';
import { fieldErrorsOf, type FieldErrors } from '../../ui/form-errors';

/**
 * A review as the reviewer is writing it. Kept in localStorage per user and item, so a reload
 * or a dropped connection loses nothing; cleared once the server has stored the review.
 */
const CriterionDraftSchema = z.object({ pass: z.boolean(), note: z.string() });

const ReviewDraftSchema = z.object({
  criteria: z.object({ rationality: CriterionDraftSchema, correctness: CriterionDraftSchema, layout: CriterionDraftSchema }),
  feedback: z.string(),
  corrected_answer: z.string(),
  corrected_question: z.string(),
  complexity: z.number().int().min(1).max(5).nullable(),
  /** Time spent on the item before the page showed it this time (earlier visits, reloads). */
  elapsed_ms: z.number().min(0),
});
export type ReviewDraft = z.infer<typeof ReviewDraftSchema>;

const StoredDraftSchema = z.object({ draft: ReviewDraftSchema, saved_at: z.number() });

const KEY_PREFIX = 'hqa.review-draft.v1.';
/** The schema's limit: an item left open for days counts as one day. */
const MAX_TIME_SPENT_MS = 24 * 3600 * 1000;
/** Drafts nobody came back to within a week are dropped when the review page opens. */
const DRAFT_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export function emptyDraft(): ReviewDraft {
  return {
    criteria: {
      rationality: { pass: true, note: '' },
      correctness: { pass: true, note: '' },
      layout: { pass: true, note: '' },
    },
    feedback: '',
    corrected_answer: '',
    corrected_question: '',
    complexity: null,
    elapsed_ms: 0,
  };
}

/** True when the reviewer has not touched anything worth keeping. */
export function isPristine(draft: ReviewDraft): boolean {
  const { elapsed_ms: _elapsed, ...rest } = draft;
  const { elapsed_ms: _empty, ...empty } = emptyDraft();
  return JSON.stringify(rest) === JSON.stringify(empty);
}

function keyOf(userId: number, itemId: number): string {
  return `${KEY_PREFIX}${userId}.${itemId}`;
}

/** localStorage may be full, disabled or blocked; a draft is a convenience, never an error. */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function loadDraft(userId: number, itemId: number): ReviewDraft | null {
  const text = storage()?.getItem(keyOf(userId, itemId));
  if (!text) return null;
  try {
    const parsed = StoredDraftSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.draft : null;
  } catch {
    return null;
  }
}

export function saveDraft(userId: number, itemId: number, draft: ReviewDraft): void {
  try {
    storage()?.setItem(keyOf(userId, itemId), JSON.stringify({ draft, saved_at: Date.now() }));
  } catch {
    // Quota exceeded: the review itself is unaffected.
  }
}

/** The same review, however long was spent on it. */
function sameReview(a: ReviewDraft, b: ReviewDraft): boolean {
  return JSON.stringify({ ...a, elapsed_ms: 0 }) === JSON.stringify({ ...b, elapsed_ms: 0 });
}

/**
 * Removes the item's draft. With `submitted`, only while the draft still says what was
 * submitted: another tab on the same item may have written its own since, and keeps it.
 */
export function clearDraft(userId: number, itemId: number, submitted?: ReviewDraft): void {
  if (submitted) {
    const stored = loadDraft(userId, itemId);
    if (stored && !sameReview(stored, submitted)) return;
  }
  storage()?.removeItem(keyOf(userId, itemId));
}

/** Removes drafts older than a week. */
export function pruneDrafts(now = Date.now()): void {
  const store = storage();
  if (!store) return;
  const stale: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (!key?.startsWith(KEY_PREFIX)) continue;
    try {
      const parsed = StoredDraftSchema.safeParse(JSON.parse(store.getItem(key) ?? ''));
      if (!parsed.success || now - parsed.data.saved_at > DRAFT_MAX_AGE_MS) stale.push(key);
    } catch {
      stale.push(key);
    }
  }
  for (const key of stale) store.removeItem(key);
}

/**
 * The decision the criteria point to, for Ctrl+Enter: a failed rationality or layout means
 * reject; a failed correctness is an accept when a corrected answer is given, else a reject.
 */
export function suggestedDecision(draft: ReviewDraft): Decision {
  const { rationality, correctness, layout } = draft.criteria;
  if (!rationality.pass || !layout.pass) return 'reject';
  if (!correctness.pass) return draft.corrected_answer.trim() === '' ? 'reject' : 'accept';
  return 'accept';
}

export function failedCriteria(draft: ReviewDraft): Criterion[] {
  return CRITERIA.filter((criterion) => !draft.criteria[criterion].pass);
}

/** Text left empty, or the item's own text unchanged, is not a correction. */
function correction(text: string, original: string): string | undefined {
  const trimmed = text.trim();
  return trimmed === '' || trimmed === original.trim() ? undefined : trimmed;
}

/**
 * The request body for a decision, checked with the shared schema before it is sent: the
 * messages are the server's own (a rejection needs a failed criterion and feedback, …).
 */
export function buildReview(
  draft: ReviewDraft,
  decision: Decision,
  original: { answer: string; question: string },
  timeSpentMs: number,
): { ok: true; body: SubmitReviewRequest } | { ok: false; errors: FieldErrors } {
  const body: SubmitReviewRequest = {
    decision,
    criteria: draft.criteria,
    feedback: draft.feedback,
    corrected_answer: correction(draft.corrected_answer, original.answer),
    corrected_question: correction(draft.corrected_question, original.question),
    complexity: draft.complexity ?? undefined,
    time_spent_ms: Math.min(MAX_TIME_SPENT_MS, Math.max(0, Math.round(timeSpentMs))),
  };
  const parsed = SubmitReviewRequestSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: fieldErrorsOf(parsed.error) };
  return { ok: true, body };
}

/** The key that fixes what a refusal is about, named in its message. */
const FIX_KEYS: Record<string, string> = { criteria: '1, 2 or 3', feedback: 'f', corrected_answer: 'c', corrected_question: 'q' };

/**
 * One sentence saying why a decision was refused and which keys fix it: the page says this and
 * leaves the focus where it was, so the next keys still reach the page, not a field.
 */
export function refusalMessage(decision: Decision, errors: FieldErrors): string {
  const fields = Object.keys(errors).filter((field) => errors[field] !== undefined);
  if (decision === 'reject' && fields.every((field) => field === 'criteria' || field === 'feedback')) {
    const needs = [
      ...(errors.criteria ? [`a failed criterion (press ${FIX_KEYS.criteria})`] : []),
      ...(errors.feedback ? [`written feedback (press ${FIX_KEYS.feedback})`] : []),
    ];
    return `Not rejected: a rejection needs ${needs.join(' and ')}.`;
  }
  const reasons = fields.map((field) => {
    const key = FIX_KEYS[field];
    return key ? `${errors[field]} (press ${key})` : `${errors[field]}`;
  });
  return `Not ${decision === 'accept' ? 'accepted' : 'rejected'}: ${reasons.join('; ')}.`;
}

/**
 * What in a valid accept reads like doubt about the item: a failed criterion, feedback, a
 * corrected answer or question. An accept carrying any of them is confirmed first, so a
 * review that says something is wrong is never stored as a plain accept without a word.
 */
export function acceptConcerns(body: SubmitReviewRequest): string[] {
  const failed = CRITERIA.filter((criterion) => !body.criteria[criterion].pass);
  const concerns: string[] = [];
  if (failed.length > 0) concerns.push(`you failed ${failed.map((criterion) => CRITERION_LABELS[criterion].toLowerCase()).join(' and ')}`);
  if (body.corrected_answer !== undefined) concerns.push(`you corrected the answer to “${body.corrected_answer}”`);
  if (body.corrected_question !== undefined) concerns.push('you corrected the question');
  if ((body.feedback ?? '').trim() !== '') concerns.push('you wrote feedback');
  return concerns;
}
