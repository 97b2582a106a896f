import { describe, expect, it } from 'vitest';
import { biasFlags } from './bias-guards';

describe('biasFlags', () => {
  it('flags an answer that claims to change but equals the factual label', () => {
    expect(biasFlags({ affectsAnswer: true, answer: '42', factualLabel: '42.0', recomputedAnswer: '84' })).toEqual(['unchanged_answer']);
  });
  it('flags an unchanged claim whose recomputed answer differs', () => {
    expect(biasFlags({ affectsAnswer: false, answer: 'Japan', factualLabel: 'Japan', recomputedAnswer: 'China' })).toEqual(['changed_recomputed']);
  });
  it('compares an unchanged claim with the item’s own question before the edit, not the factual label it came from', () => {
    // "How many bars above 10?" asked of a chart whose factual question was "Which is highest?".
    expect(biasFlags({ affectsAnswer: false, answer: '3', factualLabel: 'Japan', recomputedAnswer: '3', uneditedAnswer: '3' })).toEqual([]);
    expect(biasFlags({ affectsAnswer: false, answer: '3', factualLabel: 'Japan', recomputedAnswer: '4', uneditedAnswer: '3' })).toEqual(['changed_recomputed']);
  });
  it('passes consistent items, and does not guess without a recomputed answer', () => {
    expect(biasFlags({ affectsAnswer: true, answer: '84', factualLabel: '42', recomputedAnswer: '84' })).toEqual([]);
    expect(biasFlags({ affectsAnswer: false, answer: 'Japan', factualLabel: 'Japan', recomputedAnswer: 'Japan' })).toEqual([]);
    expect(biasFlags({ affectsAnswer: false, answer: 'Japan', factualLabel: 'Japan', recomputedAnswer: null })).toEqual([]);
  });
});
