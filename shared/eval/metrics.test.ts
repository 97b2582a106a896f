import { describe, expect, it } from 'vitest';
import type { AnswerType } from '../table/answers';
import {
  answerTypeVariance,
  countsTowardBias,
  countVerdicts,
  declineRate,
  judgePrediction,
  measureItems,
  populationVariance,
  relaxedAccuracy,
  roundTo,
  scoreItems,
  scoreWithBaseline,
  type ScorableItem,
} from './metrics';

function buildItem(overrides: Partial<ScorableItem> & { id: string }): ScorableItem {
  return { answer: '10', answer_type: 'integer' as AnswerType, affects_answer: true, original_label: '20', question_relation: 'same', ...overrides };
}

const predictionsOf = (entries: Record<string, string>) => new Map(Object.entries(entries));

// Hand-computed cases pin the formulas; paper-tables.test.ts runs every row of the paper's
// Tables 3 and 4 (../shared/data/chart-hqa-paper) through them, rounded as the paper rounds.

describe('declineRate', () => {
  it('is |Acc_QA − Acc_HQA| / Acc_QA × 100', () => {
    expect(declineRate(80, 60)).toBe(25);
    expect(declineRate(50, 50)).toBe(0);
    expect(declineRate(90, 30)).toBeCloseTo(66.6667, 4);
  });

  it('takes the absolute difference, so a gain is a positive rate too', () => {
    expect(declineRate(40, 50)).toBe(25);
  });

  it('is scale-free: fractions give the same rate as percentages', () => {
    expect(declineRate(0.8, 0.6)).toBeCloseTo(25, 10);
  });

  it('is undefined (null) when Acc_QA is 0', () => {
    expect(declineRate(0, 10)).toBeNull();
  });
});

describe('populationVariance', () => {
  it('divides by n, not n − 1', () => {
    // mean 60; squared deviations 900 + 100 + 100 + 900 = 2000; 2000 / 4 = 500 (sample: 666.67)
    expect(populationVariance([90, 70, 50, 30])).toBe(500);
    expect(populationVariance([42, 42, 42, 42])).toBe(0);
    expect(populationVariance([])).toBeNull();
  });

  it('covers only the answer types that have items', () => {
    expect(answerTypeVariance({ integer: 80, decimal: null, boolean: 60, text: null })).toBe(100);
    expect(answerTypeVariance({ integer: null, decimal: null, boolean: null, text: null })).toBeNull();
  });
});

describe('roundTo', () => {
  it('rounds to two decimals, half away from zero, without binary noise', () => {
    expect(roundTo(100 / 3)).toBe(33.33);
    expect(roundTo(200 / 3)).toBe(66.67);
    expect(roundTo(1.005)).toBe(1.01);
    expect(roundTo(12.345)).toBe(12.35);
    expect(roundTo(0)).toBe(0);
  });
});

describe('scoreItems', () => {
  const items: ScorableItem[] = [
    buildItem({ id: 'a', answer: '10', answer_type: 'integer', original_label: '20' }),
    buildItem({ id: 'b', answer: '12', answer_type: 'integer', original_label: '12', affects_answer: false }),
    buildItem({ id: 'c', answer: '3.5', answer_type: 'decimal', original_label: '7' }),
    buildItem({ id: 'd', answer: 'Yes', answer_type: 'boolean', original_label: 'No' }),
    buildItem({ id: 'e', answer: 'Japan', answer_type: 'text', original_label: 'China' }),
    buildItem({ id: 'f', answer: 'No', answer_type: 'boolean', original_label: 'Yes' }),
  ];

  it('computes accuracy overall and per answer type, variance, bias rate and counts by hand', () => {
    const predictions = predictionsOf({
      a: '10.4', // within 5% of 10: correct
      b: '13', // 8% off 12: wrong; factual item, so not biased either
      c: '7', // the original label: biased
      d: 'yes', // case-insensitive: correct
      e: 'china', // the original label, any case: biased
      // f: missing → wrong, not biased
      stray: '1', // not an item
    });
    const score = scoreItems(items, predictions);
    // 2 correct of 6
    expect(score.relaxed_accuracy).toBe(33.33);
    // integer 1/2, decimal 0/1, boolean 1/2, text 0/1
    expect(score.by_answer_type).toEqual({ integer: 50, decimal: 0, boolean: 50, text: 0 });
    // mean 25; deviations ±25 → population variance 625
    expect(score.answer_type_variance).toBe(625);
    // affects_answer items: a, c, d, e, f (5); biased: c, e
    expect(score.bias_rate).toBe(40);
    expect(score.left_out_different).toBe(0);
    expect(score.counts).toEqual({
      items: 6,
      predicted: 5,
      missing: 1,
      correct: 2,
      by_answer_type: {
        integer: { items: 2, correct: 1 },
        decimal: { items: 1, correct: 0 },
        boolean: { items: 2, correct: 1 },
        text: { items: 1, correct: 0 },
      },
      affects_answer: 5,
      biased: 2,
      same_question: 6,
      same_correct: 2,
      unknown_predictions: 1,
    });
  });

  it('rounds only the output: the variance comes from unrounded accuracies', () => {
    const thirds: ScorableItem[] = [
      buildItem({ id: 'i1', answer: '1' }),
      buildItem({ id: 'i2', answer: '2' }),
      buildItem({ id: 'i3', answer: '3' }),
      buildItem({ id: 't1', answer: 'x', answer_type: 'text' }),
    ];
    const raw = measureItems(thirds, predictionsOf({ i1: '1', t1: 'x' }));
    // integer 100/3, text 100: variance ((100 − 100/3) / 2)² = (100/3)² = 1111.11…
    expect(raw.answerTypeVariance).toBeCloseTo(10000 / 9, 9);
    const score = scoreItems(thirds, predictionsOf({ i1: '1', t1: 'x' }));
    expect(score.by_answer_type.integer).toBe(33.33);
    // From the rounded 33.33 it would be 33.335² = 1111.22; from raw values it is 1111.11.
    expect(score.answer_type_variance).toBe(1111.11);
  });

  it('counts every missing prediction as wrong', () => {
    const score = scoreItems(items, new Map());
    expect(score.relaxed_accuracy).toBe(0);
    expect(score.bias_rate).toBe(0);
    expect(score.counts).toMatchObject({ predicted: 0, missing: 6, correct: 0 });
  });

  it('does not count as biased a prediction within tolerance of both the answer and the label', () => {
    const close = [buildItem({ id: 'x', answer: '100', original_label: '103' })];
    const score = scoreItems(close, predictionsOf({ x: '102' }));
    expect(score.relaxed_accuracy).toBe(100);
    expect(score.bias_rate).toBe(0);
  });

  it('reports null, not 0, for what has no items', () => {
    const score = scoreItems([], new Map());
    expect(score.relaxed_accuracy).toBeNull();
    expect(score.by_answer_type).toEqual({ integer: null, decimal: null, boolean: null, text: null });
    expect(score.answer_type_variance).toBeNull();
    expect(score.bias_rate).toBeNull();
  });
});

describe('scoring edge cases (ChartQA relaxed correctness, as the reference implements it)', () => {
  const one = (answer: string, prediction: string | undefined, answer_type: AnswerType = 'integer') =>
    scoreItems(
      [buildItem({ id: 'q', answer, answer_type })],
      prediction === undefined ? new Map() : predictionsOf({ q: prediction }),
    ).relaxed_accuracy;

  it('reads a trailing % as hundredths: "45%" equals "0.45", not "45"', () => {
    expect(one('45%', '0.45')).toBe(100);
    expect(one('0.45', '45%', 'decimal')).toBe(100);
    expect(one('45%', '45%')).toBe(100);
    expect(one('45%', '45')).toBe(0);
    expect(one('45', '45%')).toBe(0);
    expect(one('45%', '46%')).toBe(100); // within 5% of 0.45
  });

  it('falls back to exact matching for a zero target, where no relative error exists', () => {
    expect(one('0', '0')).toBe(100);
    expect(one('0', ' 0 ')).toBe(100);
    expect(one('0', '0.0')).toBe(0);
    expect(one('0', '0.001')).toBe(0);
    expect(one('0%', '0%')).toBe(100);
  });

  it('matches Yes/No in any case but not with punctuation, a final full stop aside', () => {
    expect(one('Yes', 'yes', 'boolean')).toBe(100);
    expect(one('No', 'NO', 'boolean')).toBe(100);
    // Both sides lose a final full stop, as extraction drops the prediction's (answerCorrect).
    expect(one('Yes', 'Yes.', 'boolean')).toBe(100);
    expect(one('Yes', 'Yes!', 'boolean')).toBe(0);
    expect(one('Yes', 'No', 'boolean')).toBe(0);
  });

  it('ignores surrounding whitespace', () => {
    expect(one('12', ' 12 ')).toBe(100);
    expect(one('Japan', '  Japan\n', 'text')).toBe(100);
    expect(one('Yes', ' yes', 'boolean')).toBe(100);
  });

  it('matches text case-insensitively but otherwise exactly', () => {
    expect(one('Bridgestone (Japan)', 'bridgestone (japan)', 'text')).toBe(100);
    expect(one('Bridgestone (Japan)', 'Bridgestone', 'text')).toBe(0);
  });

  it('scores a missing prediction as wrong and an empty one as wrong', () => {
    expect(one('12', undefined)).toBe(0);
    expect(one('12', '')).toBe(0);
  });

  it('does not parse thousands separators, as the reference does not', () => {
    expect(one('1,200', '1,200')).toBe(100); // exact string match
    expect(one('1,200', '1200')).toBe(0);
  });
});

describe('scoreWithBaseline', () => {
  const items: ScorableItem[] = [
    buildItem({ id: 'a', answer: '10', original_label: '20' }),
    buildItem({ id: 'b', answer: '5', original_label: '8' }),
    buildItem({ id: 'c', answer: 'Yes', answer_type: 'boolean', original_label: 'No' }),
    buildItem({ id: 'd', answer: 'Japan', answer_type: 'text', original_label: 'China' }),
  ];

  it('scores the baseline against the original labels and derives the decline rate from raw accuracies', () => {
    // HQA: a right, b wrong, c wrong, d missing → 25%. QA: a, b, c right of 4 → 75%.
    const result = scoreWithBaseline(items, predictionsOf({ a: '10', b: '8', c: 'No' }), predictionsOf({ a: '20', b: '8', c: 'no' }));
    expect(result.relaxed_accuracy).toBe(25);
    expect(result.baseline_accuracy).toBe(75);
    // |75 − 25| / 75 × 100
    expect(result.decline_rate).toBe(66.67);
    expect(relaxedAccuracy(items, predictionsOf({ a: '20' }), (item) => item.original_label)).toBe(25);
  });

  it('has no decline rate when the baseline scores zero', () => {
    const result = scoreWithBaseline(items, predictionsOf({ a: '10' }), new Map());
    expect(result.baseline_accuracy).toBe(0);
    expect(result.decline_rate).toBeNull();
  });
});

describe('items that ask another question (question_relation different)', () => {
  // s1–s3 ask the factual question under an assumption; d1 and d2 ask another question.
  const items: ScorableItem[] = [
    buildItem({ id: 's1', answer: '10', original_label: '20' }),
    buildItem({ id: 's2', answer: '5', original_label: '8' }),
    buildItem({ id: 's3', answer: '12', original_label: '12', affects_answer: false }), // a control
    buildItem({ id: 'd1', answer: '30', answer_type: 'integer', original_label: 'Altura', question_relation: 'different' }),
    buildItem({ id: 'd2', answer: '7', original_label: '9', affects_answer: false, question_relation: 'different' }),
  ];
  const predictions = predictionsOf({ s1: '20', s2: '5', s3: '12', d1: 'Altura', d2: '7' });

  it('are left out of the bias rate, though a counted d1 would change it; accuracy keeps them', () => {
    const score = scoreItems(items, predictions);
    // Every item: s2, s3, d2 right of 5.
    expect(score.relaxed_accuracy).toBe(60);
    expect(score.by_answer_type.integer).toBe(60);
    // Same items whose answer changes: s1, s2; s1 gave the factual label. Counting d1 (which
    // also gave its label) would make it 2 of 3 = 66.67.
    expect(score.bias_rate).toBe(50);
    expect(score.left_out_different).toBe(2);
    expect(score.counts).toMatchObject({ items: 5, correct: 3, affects_answer: 2, biased: 1, same_question: 3, same_correct: 2 });
  });

  it('never judges a different item biased', () => {
    expect(judgePrediction({ answer: '30', affects_answer: true, original_label: 'Altura', question_relation: 'different' }, 'Altura')).toEqual({ correct: false, biased: false });
    expect(judgePrediction({ answer: '30', affects_answer: true, original_label: 'Altura', question_relation: 'same' }, 'Altura')).toEqual({ correct: false, biased: true });
  });

  it('compare only the same items with the baseline on their factual questions for the decline rate', () => {
    const baseline = predictionsOf({ s1: '20', s2: '8', s3: '12', d1: 'Sorento', d2: '9' });
    const result = scoreWithBaseline(items, predictions, baseline);
    // The baseline on every item: 4 of 5; on the same items: 3 of 3. HQA on the same items: 2 of 3.
    expect(result.baseline_accuracy).toBe(80);
    expect(result.decline_over).toEqual({ items: 3, accuracy: 66.67, baseline_accuracy: 100 });
    // |100 − 200/3| / 100 × 100 = 33.33; over every item it would be |80 − 60| / 80 = 25.
    expect(result.decline_rate).toBe(33.33);
    expect(result.left_out_different).toBe(2);
  });

  it('have no decline or bias rate when no item is the factual question', () => {
    const different = items.map((item) => ({ ...item, question_relation: 'different' as const }));
    const result = scoreWithBaseline(different, predictions, predictions);
    expect(result.relaxed_accuracy).toBe(60);
    expect(result.bias_rate).toBeNull();
    expect(result.decline_rate).toBeNull();
    expect(result.left_out_different).toBe(5);
  });
});

describe('countVerdicts: which questions each count takes, for files and stored runs alike', () => {
  const row = (answer_type: AnswerType, affects_answer: boolean, question_relation: 'same' | 'different', verdict: { correct: boolean; biased: boolean } | null) => ({
    answer_type,
    affects_answer,
    question_relation,
    verdict,
  });

  it('counts bias only over same items whose answer the assumption changed, whatever a stored flag says', () => {
    const counts = countVerdicts([
      row('integer', true, 'same', { correct: false, biased: true }),
      row('integer', false, 'same', { correct: true, biased: false }),
      // A row stored as biased on a `different` item (a verdict from before the relation existed) is not counted.
      row('text', true, 'different', { correct: false, biased: true }),
      row('boolean', true, 'same', null),
    ]);
    expect(counts).toMatchObject({ items: 4, predicted: 3, missing: 1, correct: 1, affects_answer: 2, biased: 1, same_question: 3, same_correct: 1 });
    expect(counts.by_answer_type).toMatchObject({ integer: { items: 2, correct: 1 }, text: { items: 1, correct: 0 }, boolean: { items: 1, correct: 0 } });
  });

  it('counts a grouped verdict (a stored run\'s rows, grouped) as that many questions', () => {
    const rows = [
      row('integer', true, 'same', { correct: false, biased: true }),
      row('integer', false, 'same', { correct: true, biased: false }),
      row('text', true, 'different', { correct: false, biased: true }),
      row('boolean', true, 'same', null),
      row('decimal', true, 'same', { correct: true, biased: false }),
    ];
    const counts = [3, 1, 2, 4, 5];
    const expanded = rows.flatMap((verdict, index) => Array.from({ length: counts[index] as number }, () => verdict));
    const grouped = rows.map((verdict, index) => ({ ...verdict, count: counts[index] }));
    expect(countVerdicts(grouped)).toEqual(countVerdicts(expanded));
    expect(countVerdicts(grouped)).toMatchObject({ items: 15, predicted: 11, missing: 4, correct: 6, biased: 3, same_question: 13 });
  });

  it('is the same rule judgePrediction applies: a different item is never biased, a same one is', () => {
    const item = { answer: '40', affects_answer: true, original_label: '20', question_relation: 'same' as const };
    expect(judgePrediction(item, '20')).toEqual({ correct: false, biased: true });
    expect(judgePrediction({ ...item, question_relation: 'different' }, '20')).toEqual({ correct: false, biased: false });
    expect(countsTowardBias(item)).toBe(true);
    expect(countsTowardBias({ affects_answer: false, question_relation: 'same' })).toBe(false);
  });
});
