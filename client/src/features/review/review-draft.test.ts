import { describe, expect, it } from 'vitest';
import { acceptConcerns, buildReview, emptyDraft, refusalMessage, type ReviewDraft } from './review-draft';

const ITEM = { answer: '42', question: 'Suppose X doubled. What would Y be?' };

function draftWith(change: (draft: ReviewDraft) => void): ReviewDraft {
  const draft = emptyDraft();
  change(draft);
  return draft;
}

function refusal(draft: ReviewDraft, decision: 'accept' | 'reject'): string {
  const result = buildReview(draft, decision, ITEM, 1000);
  if (result.ok) throw new Error('expected a refusal');
  return refusalMessage(decision, result.errors);
}

function concerns(draft: ReviewDraft): string[] {
  const result = buildReview(draft, 'accept', ITEM, 1000);
  if (!result.ok) throw new Error('expected a valid accept');
  return acceptConcerns(result.body);
}

describe('refused decisions say why in one sentence, naming the keys that fix them', () => {
  it('a rejection without a failed criterion or feedback', () => {
    expect(refusal(emptyDraft(), 'reject')).toBe('Not rejected: a rejection needs a failed criterion (press 1, 2 or 3) and written feedback (press f).');
    expect(refusal(draftWith((d) => (d.criteria.layout.pass = false)), 'reject')).toBe('Not rejected: a rejection needs written feedback (press f).');
    expect(refusal(draftWith((d) => (d.feedback = 'odd')), 'reject')).toBe('Not rejected: a rejection needs a failed criterion (press 1, 2 or 3).');
  });

  it('an accept that cannot be one', () => {
    expect(refusal(draftWith((d) => (d.criteria.rationality.pass = false)), 'accept')).toBe(
      'Not accepted: accept needs rationality and layout consistency to pass; reject instead (press 1, 2 or 3).',
    );
    expect(refusal(draftWith((d) => (d.criteria.correctness.pass = false)), 'accept')).toBe('Not accepted: accepting with a failed correctness needs the corrected answer (press c).');
  });
});

describe('what an accept asks about first', () => {
  it('nothing for a plain accept, or a "correction" equal to the answer', () => {
    expect(concerns(emptyDraft())).toEqual([]);
    expect(concerns(draftWith((d) => (d.corrected_answer = ' 42 ')))).toEqual([]);
  });

  it('a failed criterion, a corrected answer or question, feedback', () => {
    expect(
      concerns(
        draftWith((d) => {
          d.criteria.correctness.pass = false;
          d.corrected_answer = '17';
          d.corrected_question = 'Suppose X halved. What would Y be?';
          d.feedback = 'off by one';
        }),
      ),
    ).toEqual(['you failed answer correctness', 'you corrected the answer to “17”', 'you corrected the question', 'you wrote feedback']);
    expect(concerns(draftWith((d) => (d.feedback = '  ')))).toEqual([]);
  });
});
