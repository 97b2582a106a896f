import { describe, expect, it } from 'vitest';
import { CONDITION_PLANS, conditionGaps, EVAL_CONDITIONS } from './conditions';

describe('conditionGaps', () => {
  it('gives each gap in percentage points from the counts, minuend minus subtrahend', () => {
    const gaps = conditionGaps({
      hqa: { correct: 1, items: 3 },
      counterfactual_image: { correct: 2, items: 3 },
      no_image: { correct: 1, items: 4 },
      drawn_original: { correct: 3, items: 4 },
      original: { correct: 7, items: 8 },
    });
    expect(Object.fromEntries(gaps.map((gap) => [gap.id, gap.points]))).toEqual({
      // 1/3 − 2/3 = −33.333…
      imagining_vs_seeing: -33.33,
      // 1/4 − 1/3 = −8.333…
      memory: -8.33,
      // 2/3 − 3/4 = −8.333…
      counterfactual_vs_drawn: -8.33,
      // 3/4 − 7/8 = −12.5 exactly
      drawing_style: -12.5,
    });
  });

  it('rounds the exact difference once, half away from zero, not the difference of rounded accuracies', () => {
    // 5/8 − 1/3 = 29.1666… → 29.17; the rounded accuracies (62.5 − 33.33) would give 29.17 too, 
    expect(conditionGaps({ hqa: { correct: 5, items: 8 }, counterfactual_image: { correct: 1, items: 3 } })[0]?.points).toBe(29.17);
    // 66.67 − 16.67 = 50.00 from rounded figures, exactly 50 as well; 1/3 − 1/6 = 16.666… → 16.67 where 33.33 − 16.67 = 16.66.
    expect(conditionGaps({ hqa: { correct: 1, items: 3 }, counterfactual_image: { correct: 1, items: 6 } })[0]?.points).toBe(16.67);
  });

  it('leaves out a gap whose conditions the run did not ask, and gives null for one with no scored question', () => {
    const gaps = conditionGaps({ hqa: { correct: 2, items: 4 }, no_image: { correct: 0, items: 0 } });
    expect(gaps).toEqual([{ id: 'memory', label: 'Memory (no image vs hypothetical)', minuend: 'no_image', subtrahend: 'hqa', points: null }]);
  });

  it('plans every condition: the two drawn ones ask the factual question, scored against the answer seen or the label', () => {
    expect(Object.keys(CONDITION_PLANS)).toEqual([...EVAL_CONDITIONS]);
    expect(CONDITION_PLANS.counterfactual_image).toEqual({ question: 'factual', gold: 'answer', image: 'drawn_counterfactual' });
    expect(CONDITION_PLANS.drawn_original).toEqual({ question: 'factual', gold: 'label', image: 'drawn_original' });
  });
});
