import { describe, expect, it } from 'vitest';
import { extractAnswer, normaliseAnswer } from './answer-extraction';
import { answerCorrect, correctUnder, SCORING_RULES } from './scoring-rules';

describe('answerCorrect: both sides read as extraction reads the prediction', () => {
  it.each(SCORING_RULES)('scores an extracted "U.S." and "Washington D.C." against their raw gold under %s', (rule) => {
    const us = extractAnswer('The largest is the U.S.\nAnswer: U.S.');
    const dc = extractAnswer('Answer: **Washington D.C.**');
    expect([us, dc]).toEqual(['U.S', 'Washington D.C']);
    // The raw comparison misses: the gold keeps its period.
    expect(correctUnder(rule, 'U.S', 'U.S.')).toBe(false);
    expect(answerCorrect(rule, us ?? '', 'U.S.')).toBe(true);
    expect(answerCorrect(rule, dc ?? '', 'Washington D.C.')).toBe(true);
    // A prediction made elsewhere, period kept, is read alike.
    expect(answerCorrect(rule, 'U.S.', 'U.S.')).toBe(true);
    expect(answerCorrect(rule, 'U.K.', 'U.S.')).toBe(false);
  });

  it('normalises idempotently and keeps a byte-order mark, which Python does not call whitespace', () => {
    for (const text of ['"U.S."', '**42**.', ' Yes. ', 'a.b']) expect(normaliseAnswer(normaliseAnswer(text))).toBe(normaliseAnswer(text));
    expect(normaliseAnswer('\u0085 Yes.\u3000')).toBe('Yes');
    expect(extractAnswer('Answer: \ufeff12')).toBe('\ufeff12');
    expect(answerCorrect('chartqa', '\ufeff12', '12')).toBe(false);
  });
});
