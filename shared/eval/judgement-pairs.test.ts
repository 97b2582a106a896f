import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../table/model';
import { derivePairs, formatLike, isSkipped, parseNumericAnswer, type PairItem } from './judgement-pairs';
import { assertValue, statementOf } from './pair-wording';
import { correctUnder, SCORING_RULES } from './scoring-rules';

/** Sales per year after the edit "Suppose the value of 2019 were doubled." (70 → 140). */
const SALES = tableFromCells(
  ['Year', 'Sales'],
  [
    ['2017', '60'],
    ['2018', '72'],
    ['2019', '140'],
    ['2020', '90'],
  ],
);

const item = (over: Partial<PairItem> = {}): PairItem => ({
  assumption: 'Suppose the value of 2019 were doubled.',
  question: 'Suppose the value of 2019 were doubled. What would be the sales in 2019?',
  answer: '140',
  original_label: '70',
  same_question: true,
  program: 'value("2019")',
  ...over,
});

function pairOf(source: PairItem, table = SALES) {
  const derived = derivePairs(source, table);
  if (isSkipped(derived)) throw new Error(`skipped: ${derived.skipped}`);
  return derived;
}

describe('derivePairs: the false value', () => {
  it('prefers the original factual answer when the assumption moved the answer: the memory-bias probe', () => {
    expect(pairOf(item())).toEqual({
      yes: 'Suppose the value of 2019 were doubled; then the sales in 2019 would be 140.',
      no: 'Suppose the value of 2019 were doubled; then the sales in 2019 would be 70.',
      false_value: '70',
      false_value_source: 'original_label',
      wording: 'statement',
    });
  });

  it('takes the nearest value of the edited table beyond tolerance when the original answer is (near) the same', () => {
    // A control item: 72 is within 5% of 70 on the same series, so the next nearest, 60, is taken.
    const table = tableFromCells(['Year', 'Sales'], [['2017', '60'], ['2018', '72'], ['2019', '70'], ['2020', '90']]);
    const pair = pairOf(item({ answer: '70', original_label: '71' }), table);
    expect(pair).toMatchObject({ false_value: '60', false_value_source: 'edited_table' });
    expect(pair.no).toMatch(/would be 60\.$/);
  });

  it('does not use the original answer of a different question', () => {
    expect(pairOf(item({ same_question: false }))).toMatchObject({ false_value: '90', false_value_source: 'edited_table' });
  });

  it("keeps to the answer cell's series and row in a table of several series, breaking ties by table order", () => {
    const table = tableFromCells(
      ['Year', 'North', 'South'],
      [
        ['2018', '30', '50'],
        ['2019', '40', '10'],
        ['2020', '50', '41'],
      ],
    );
    // Answer 40 = (2019, North): same series 30 and 50, same row 10; South's 41 is excluded (other row and series, and within 5%).
    const pair = pairOf(item({ answer: '40', original_label: '40', program: 'value("2019", "North")' }), table);
    expect(pair.false_value).toBe('30');
  });

  it('for a computed answer, draws from the series the program names', () => {
    const table = tableFromCells(['Year', 'North', 'South'], [['2018', '30', '500'], ['2019', '45', '700']]);
    // 75 = sum of North; nearest North value beyond tolerance is 45, not South's 500.
    const pair = pairOf(item({ answer: '75', original_label: '75', program: 'sum(series("North"))' }), table);
    expect(pair).toMatchObject({ false_value: '45', false_value_source: 'edited_table' });
  });

  it('takes no value that differs only in its sign, nor a table value implausibly far from the answer', () => {
    const female = tableFromCells(['Year', 'Female'], [['2009', '5.9'], ['2019', '5.27']]);
    const change = item({ answer: '-0.63', original_label: '0.63', program: 'value("2019", "Female") - value("2009", "Female")' });
    // 0.63 is the size of the move; 5.27 and 5.9 are not changes at all.
    expect(derivePairs(change, female)).toEqual({ skipped: 'no_wrong_value' });
    const sums = tableFromCells(['Year', 'North'], [['2018', '3'], ['2019', '45'], ['2020', '2000']]);
    expect(pairOf(item({ answer: '120', original_label: '120', program: 'sum(series("North"))' }), sums).false_value).toBe('45');
    expect(derivePairs(item({ answer: '120', original_label: '120', program: 'sum(series("North"))' }), tableFromCells(['Year', 'North'], [['2018', '3'], ['2020', '2000']]))).toEqual({ skipped: 'no_wrong_value' });
  });

  it('gives a count the nearest other count, never a table value', () => {
    const pair = pairOf(item({ answer: '3', original_label: '3', program: 'count(where(series(), ">", 50))', question: 'Suppose the value of 2019 were doubled. How many years would have sales above 50?' }));
    expect(pair).toMatchObject({ false_value: '4', false_value_source: 'nearby_count' });
    expect(pair.yes).toBe('Suppose the value of 2019 were doubled; then the number of years that would have sales above 50 would be 3.');
  });

  it('never offers a value that any scoring rule would call right', () => {
    // 105.2 is 5.2% off 100 by the gold (chartqa: wrong) but 4.9% by the prediction (chartbench and qwen-vl: right).
    expect(correctUnder('chartbench', '105.2', '100')).toBe(true);
    const table = tableFromCells(['Year', 'Sales'], [['2018', '105.2'], ['2019', '100'], ['2020', '130']]);
    const pair = pairOf(item({ answer: '100', original_label: '100' }), table);
    expect(pair.false_value).toBe('130');
    for (const rule of SCORING_RULES) expect(correctUnder(rule, pair.false_value, '100')).toBe(false);
    // ChartBench's rule takes a reply of 0 as right for any answer ≤ 0.05, so 0 is no false value for 0.03.
    expect(correctUnder('chartbench', '0', '0.03')).toBe(true);
    // The original answer 0 would be the memory probe, but is passed over for the table's 0.2.
    const small = tableFromCells(['Year', 'Sales'], [['2018', '0.2'], ['2019', '0.03']]);
    expect(pairOf(item({ answer: '0.03', original_label: '0' }), small)).toMatchObject({ false_value: '0.20', false_value_source: 'edited_table' });
  });

  it('writes the false value in the answer’s format: decimals, separators, percent, currency and unit', () => {
    expect(pairOf(item({ answer: '10.95', original_label: '14.6' })).false_value).toBe('14.60');
    expect(pairOf(item({ answer: '1,400', original_label: '1,050' })).false_value).toBe('1,050');
    expect(pairOf(item({ answer: '45%', original_label: '30%' })).false_value).toBe('30%');
    expect(pairOf(item({ answer: '$7.2 billion', original_label: '$5.1 billion' })).false_value).toBe('$5.1 billion');
    // A value that needs more decimals than the answer keeps them: 0.63 beside "0" is not rounded to 1.
    expect(pairOf(item({ answer: '0', original_label: '0.63' })).false_value).toBe('0.63');
  });

  it('skips items without a numeric amount as an answer, or with no usable wrong value, saying why', () => {
    expect(derivePairs(item({ answer: 'Yes' }), SALES)).toEqual({ skipped: 'not_numeric' });
    expect(derivePairs(item({ answer: 'Western Europe' }), SALES)).toEqual({ skipped: 'not_numeric' });
    // A year that is a row label is a name, not an amount (2017 is "within 5%" of 2019).
    expect(derivePairs(item({ answer: '2019', program: 'argmax(series())' }), SALES)).toEqual({ skipped: 'label_answer' });
    expect(derivePairs(item({ answer: '2018', original_label: '2019', program: 'value("x")' }), SALES)).toEqual({ skipped: 'label_answer' });
    const lone = tableFromCells(['Year', 'Sales'], [['2019', '140']]);
    expect(derivePairs(item({ original_label: '140' }), lone)).toEqual({ skipped: 'no_wrong_value' });
  });

  it('is deterministic', () => {
    const table = tableFromCells(['Year', 'Sales'], [['2017', '50'], ['2019', '70'], ['2020', '90']]);
    // 50 and 90 are equally near 70: the first in the table wins, every time.
    const runs = Array.from({ length: 3 }, () => pairOf(item({ answer: '70', original_label: '70' }), table).false_value);
    expect(runs).toEqual(['50', '50', '50']);
  });
});

describe('parseNumericAnswer and formatLike', () => {
  it('reads the formats answers use and nothing else', () => {
    expect(parseNumericAnswer('1,200')).toEqual({ value: 1200, prefix: '', suffix: '', decimals: 0, grouped: true });
    expect(parseNumericAnswer('-3.50')).toMatchObject({ value: -3.5, decimals: 2 });
    expect(parseNumericAnswer('12 million')).toMatchObject({ value: 12, suffix: ' million' });
    for (const text of ['Yes', '2018-2019', 'Q1 2018', '', '1.2.3']) expect(parseNumericAnswer(text)).toBeNull();
  });

  it('rounds half-up on the decimal value', () => {
    const format = parseNumericAnswer('1.00');
    if (!format) throw new Error('format');
    expect(formatLike(format, 1.005)).toBe('1.01');
    expect(formatLike(format, -2.345)).toBe('-2.35');
  });
});

describe('the wording: the question as a statement of its answer', () => {
  it.each([
    ['What would be the value of X in 2019?', 'the value of X in 2019 would be 70'],
    ['What would the sum of A and B be?', 'the sum of A and B would be 70'],
    ['What would the value of X be in 2019?', 'the value of X would be 70 in 2019'],
    ['What is the value of X?', 'the value of X is 70'],
    ['How many arrests would there be in 2019?', 'there would be 70 arrests in 2019'],
    ['How many countries would have a value above 20?', 'the number of countries that would have a value above 20 would be 70'],
    ['How many goals would Romelu Lukaku have scored for Belgium?', 'the number of goals that Romelu Lukaku would have scored for Belgium would be 70'],
    ['What percentage of sales would be online in 2013?', 'the percentage of sales that would be online in 2013 would be 70'],
    ['What would be the difference between Bridgestone and continental revenue ?', 'the difference between Bridgestone and continental revenue would be 70'],
    ['In how many years would the value of Brookhaven be more than 182?', 'the number of years in which the value of Brookhaven would be more than 182 would be 70'],
    ['What would be the value of GDP per capita (U.S. dollars) for Marovia?', 'the value of GDP per capita (U.S. dollars) for Marovia would be 70'],
  ])('%s', (question, statement) => {
    expect(statementOf(question, '70')).toBe(statement);
  });

  it('finds the verb after a subject only with a verb lexicon, and refuses when the verb is unclear', () => {
    const isVerb = (word: string) => ['operate', 'spend', 'smartphone', 'exceed', 'values'].includes(word);
    expect(statementOf('How many stores would Saint Laurent operate in 2020?', '33')).toBeNull();
    expect(statementOf('How many stores would Saint Laurent operate in 2020?', '33', { isVerb })).toBe('the number of stores that Saint Laurent would operate in 2020 would be 33');
    expect(statementOf('How many blue bars would exceed 520000 values?', '1', { isVerb })).toBe('the number of blue bars that would exceed 520000 values would be 1');
    // "smartphone" could be the verb as well as "spend": no guess.
    expect(statementOf('How many minutes would smartphone users in Japan spend online?', '47', { isVerb })).toBeNull();
  });

  it.each([
    'How many times would A be larger than B?',
    'For how many years would the score be 70?',
    'Can you identify how many points the data would move?',
    'What would be X? And Y?',
    'What would be X',
  ])('leaves "%s" to the quoted form', (question) => {
    expect(statementOf(question, '70')).toBeNull();
  });

  it('joins the assumption as a conditional clause, or as its own sentences', () => {
    expect(assertValue('Suppose X were doubled. What would be Y?', 'Suppose X were doubled.', '70')).toEqual({ text: 'Suppose X were doubled; then Y would be 70.', wording: 'statement' });
    expect(assertValue('If X doubled, what would Y be?', '', '70')).toEqual({ text: 'If X doubled, then Y would be 70.', wording: 'statement' });
    expect(assertValue('Suppose every "GDP (U.S. dollars)" value were doubled. What would be Y?', 'Suppose every "GDP (U.S. dollars)" value were doubled.', '70').text).toBe(
      'Suppose every "GDP (U.S. dollars)" value were doubled; then Y would be 70.',
    );
    expect(assertValue('The tallest bar is removed. The rest are halved. What would be Y?', 'The tallest bar is removed. The rest are halved.', '70').text).toBe(
      'The tallest bar is removed. The rest are halved. Then Y would be 70.',
    );
  });

  it('asserts the quoted question where no rewrite fits: still one yes/no claim about the same question', () => {
    expect(assertValue('Suppose X were 0. For how many years would Y be 70?', 'Suppose X were 0.', '6')).toEqual({
      text: 'Suppose X were 0; then the answer to "For how many years would Y be 70?" would be 6.',
      wording: 'answer_to_question',
    });
  });
});
