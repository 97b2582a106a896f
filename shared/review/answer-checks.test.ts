import { describe, expect, it } from 'vitest';
import { agreedAnswer, answerTypeProblem, checkAnswer } from './answer-checks';

describe('answerTypeProblem: a correction is checked like an item’s answer', () => {
  it('refuses anything but a ChartQA number for a numeric item', () => {
    expect(answerTypeProblem('not a number at all', 'integer')).toMatch(/must be a number as ChartQA writes one .* not "not a number at all"/);
    expect(answerTypeProblem('Yes', 'decimal')).not.toBeNull();
    expect(answerTypeProblem('12 million', 'integer')).not.toBeNull();
    for (const answer of ['12', '-3', '3.5', '1,200', '45%']) expect(answerTypeProblem(answer, 'integer')).toBeNull();
    expect(answerTypeProblem('12.5', 'integer')).toBeNull();
  });

  it('refuses anything but Yes or No for a Yes/No item; a label item takes any text', () => {
    expect(answerTypeProblem('Maybe', 'boolean')).toMatch(/must be Yes or No/);
    expect(answerTypeProblem('no', 'boolean')).toBeNull();
    expect(answerTypeProblem('Germany', 'text')).toBeNull();
    expect(answerTypeProblem('2018', 'text')).toBeNull();
  });
});

describe('checkAnswer', () => {
  it('shows the verifier’s recomputation at the answer’s precision and the factual label beside the answer', () => {
    const item = { verifier: { recomputed_answer: '418.8' }, factual_label: '400' };
    expect(checkAnswer('400', item)).toEqual({ answer: '400', answer_type: 'integer', recomputed_answer: '418.8', matches_recomputed: false, is_factual_label: true });
    expect(checkAnswer('418.8', item)).toMatchObject({ answer_type: 'decimal', matches_recomputed: true, is_factual_label: false });
    expect(checkAnswer('419', { ...item, verifier: { recomputed_answer: null } })).toMatchObject({ recomputed_answer: null, matches_recomputed: null });
  });
});

describe('agreedAnswer: a correction needs the accepting reviewers’ agreement', () => {
  it('one accepting review (k = 1) agrees with itself', () => {
    expect(agreedAnswer('400', ['241'])).toEqual({ agreed: true, answer: '241' });
    expect(agreedAnswer('400', [null])).toEqual({ agreed: true, answer: null });
  });

  it('two reviewers giving the same correction agree on it, however written', () => {
    expect(agreedAnswer('400', ['241', '241.0'])).toEqual({ agreed: true, answer: '241' });
    expect(agreedAnswer('400', ['1,200', '1200'])).toEqual({ agreed: true, answer: '1,200' });
  });

  it('a correction and an accept of the answer as it is do not agree; nor do two corrections', () => {
    expect(agreedAnswer('241', ['999', null])).toEqual({ agreed: false, answers: ['999', '241'] });
    expect(agreedAnswer('400', ['241', '242'])).toEqual({ agreed: false, answers: ['241', '242'] });
  });

  it('a “correction” to the item’s own answer is the item’s answer', () => {
    expect(agreedAnswer('400', ['400.0', null])).toEqual({ agreed: true, answer: null });
  });
});
