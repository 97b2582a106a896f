import { describe, expect, it } from 'vitest';
import { contentWords, questionRelation } from './question-relation';

describe('questionRelation', () => {
  const factual = 'Which country led the list of kidnapping cases in 2018?';

  it('accepts the factual question with only the grammar of a hypothetical changed', () => {
    const assumption = 'Suppose the value of Mexico were halved.';
    for (const asked of [
      'Which country would lead the list of kidnapping cases in 2018?',
      'Which country would then lead the list of kidnapping cases in 2018?',
      'Which country led the list of kidnapping cases in 2018?',
    ]) {
      expect(questionRelation(factual, `${assumption} ${asked}`, assumption), asked).toBe('same');
    }
    expect(questionRelation("What's the median value?", 'Suppose X. What would be the median value?', 'Suppose X.')).toBe('same');
    // ChartQA 1304: the model wrote "the light blue bar" for the question's "light blue bar".
    expect(questionRelation("What's the median value of light blue bar?", 'Suppose X. What would be the median value of the light blue bar?', 'Suppose X.')).toBe('same');
    expect(questionRelation('How many stores did Saint Laurent operate in 2020?', 'Suppose X. How many stores would Saint Laurent operate in 2020?', 'Suppose X.')).toBe('same');
  });

  it('accepts an assumption written into the question itself', () => {
    expect(questionRelation('What is the value of Slovenia?', 'If Slovenia doubled, what would the value of Slovenia be?', 'Slovenia doubled.')).toBe('same');
  });

  it('calls another question different, however hypothetical it reads', () => {
    const assumption = 'Suppose the Safety score of Altura S9 were doubled.';
    expect(
      questionRelation('For Safety, which model had the highest value?', `${assumption} What would be the total of all values for Altura S9?`, assumption),
    ).toBe('different');
    // Another entity, another aggregate, a second question after the factual one.
    expect(questionRelation('What is the value of Slovenia?', 'Suppose X. What would be the value of Austria?', 'Suppose X.')).toBe('different');
    expect(questionRelation('What is the value of Slovenia?', 'Suppose X. What would be the average value?', 'Suppose X.')).toBe('different');
    expect(questionRelation('What is the value of Slovenia?', 'Suppose X. Then, considering that, what would be the value of Slovenia?', 'Suppose X.')).toBe('different');
  });

  it('reduces a question to its content words', () => {
    expect(contentWords('What would the value of "Increase" be then?')).toEqual(['what', 'value', 'of', 'increase']);
    expect(contentWords("What's Wyndham's score in 2018/19?")).toEqual(['what', "wyndham's", 'score', 'in', '2018/19']);
  });
});
