import { describe, expect, it } from 'vitest';
import {
  declineRate,
  declineRateDecimal,
  declineRateOfShares,
  emptyTypeCounts,
  measureCounts,
  percent,
  populationVarianceDecimal,
  roundScore,
  roundTo,
  scoreWithBaseline,
  varianceOfShares,
  type ScorableItem,
} from './metrics';

/** Printed figures round half-up on the exact value: decimals as decimals, shares of counts as rationals. */

describe('declineRateDecimal', () => {
  it('is |Acc_QA − Acc_HQA| / Acc_QA × 100 on the decimals, rounded half-up', () => {
    expect(declineRateDecimal('83.60', '30.79')).toBe(63.17);
    expect(declineRateDecimal(84.8, 48.23)).toBe(43.13);
    expect(declineRateDecimal('40', '50')).toBe(25);
    expect(declineRateDecimal('0', '10')).toBeNull();
  });
});

describe('populationVarianceDecimal', () => {
  it('divides by n, rounding once at the end', () => {
    expect(populationVarianceDecimal(['90', '70', '50', '30'])).toBe(500);
    expect(populationVarianceDecimal(['51.55', '68.02', '72.34', '64.54'])).toBe(60.24);
    expect(populationVarianceDecimal([])).toBeNull();
  });
});

describe('shares of counts', () => {
  it('declineRateOfShares rounds the exact rational where the doubles fall below the half', () => {
    // Acc_QA 1/3, Acc_HQA 5/32: the rate is exactly 53.125; in doubles 53.12499999999999, toFixed 53.12.
    const float = declineRate(percent(1, 3) ?? 0, percent(5, 32) ?? 0) ?? Number.NaN;
    expect(float.toFixed(2)).toBe('53.12');
    expect(declineRateOfShares({ part: 1, whole: 3 }, { part: 5, whole: 32 })).toBe(53.13);
    expect(declineRateOfShares({ part: 0, whole: 3 }, { part: 1, whole: 2 })).toBeNull();
    expect(declineRateOfShares({ part: 1, whole: 0 }, { part: 1, whole: 2 })).toBeNull();
  });

  it('varianceOfShares is the population variance of the exact percentages', () => {
    // 80 % and 60 %: mean 70, variance 100.
    expect(varianceOfShares([{ part: 4, whole: 5 }, { part: 3, whole: 5 }])).toBe(100);
    // 100/3 % and 200/3 %: variance (50/3)² = 277.777… → 277.78.
    expect(varianceOfShares([{ part: 1, whole: 3 }, { part: 2, whole: 3 }])).toBe(277.78);
    expect(varianceOfShares([])).toBeNull();
  });
});

describe('roundScore', () => {
  it('rounds each percentage half-up on its counts’ exact rational', () => {
    const byType = emptyTypeCounts();
    byType.integer = { items: 200, correct: 57 };
    byType.text = { items: 8, correct: 1 };
    const score = roundScore(
      measureCounts({
        items: 208, predicted: 208, missing: 0, correct: 58, by_answer_type: byType,
        affects_answer: 200, biased: 57, same_question: 208, same_correct: 58, unknown_predictions: 0,
      }),
    );
    expect(score.by_answer_type).toEqual({ integer: 28.5, decimal: null, boolean: null, text: 12.5 });
    expect(score.relaxed_accuracy).toBe(27.88);
    // (28.5 − 12.5)² / 4 = 64
    expect(score.answer_type_variance).toBe(64);
    expect(score.bias_rate).toBe(28.5);
  });
});

describe('scoreWithBaseline', () => {
  it('gives the decline rate of the counts, rounded once', () => {
    const items: ScorableItem[] = Array.from({ length: 96 }, (_, i) => ({
      id: `q${i}`, answer: '1', answer_type: 'integer', affects_answer: true, original_label: '2', question_relation: 'same',
    }));
    // Acc_QA 32/96 = 1/3, Acc_HQA 15/96 = 5/32: the decline rate is exactly 53.125.
    const predictions = new Map(items.slice(0, 15).map((item) => [item.id, '1']));
    const baseline = new Map(items.slice(0, 32).map((item) => [item.id, '2']));
    const result = scoreWithBaseline(items, predictions, baseline);
    expect(result.decline_rate).toBe(53.13);
    expect(result.decline_over).toEqual({ items: 96, accuracy: 15.63, baseline_accuracy: 33.33 });
    expect(result.baseline_accuracy).toBe(33.33);
  });
});

describe('roundTo', () => {
  it('keeps its contract for callers that hold a decimal figure', () => {
    expect(roundTo(100 / 3)).toBe(33.33);
    expect(roundTo(1.005)).toBe(1.01);
    expect(roundTo(-2.675)).toBe(-2.68);
  });
});
