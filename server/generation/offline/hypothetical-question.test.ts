import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { questionRelation } from '../../language/question-relation';
import { hypotheticalQuestion } from './hypothetical-question';

const SAMPLE = resolve(process.cwd(), '../shared/data/chartqa-sample');

describe('hypotheticalQuestion', () => {
  it.each([
    ['What is the value of Slovenia in the graph?', 'What would be the value of Slovenia in the graph?'],
    ['Is the value of light green bar 35 in 1989?', 'Would the value of light green bar be 35 in 1989?'],
    ['Is the Decrease value is two times the value of Increase?', 'Would the Decrease value be two times the value of Increase?'],
    ['In which year is the ACSI score is lowest?', 'In which year would the ACSI score be lowest?'],
    ['How many stores did Saint Laurent operate in Western Europe in 2020?', 'How many stores would Saint Laurent operate in Western Europe in 2020?'],
    ['What category accounted for five percent of top 100 pins in 2018?', 'What category would account for five percent of top 100 pins in 2018?'],
    ['Which country led the list of kidnapping cases in 2018?', 'Which country would lead the list of kidnapping cases in 2018?'],
    ['How many goals has Romelu Lukaku scored for Belgium?', 'How many goals would Romelu Lukaku have scored for Belgium?'],
    ['How many arrests were there in 2019?', 'How many arrests would there be in 2019?'],
    ['In what year was the infant mortality rate 9.4 out of every 1,000 births?', 'In what year would the infant mortality rate be 9.4 out of every 1,000 births?'],
    ['Which option has 16%?', 'Which option would have 16%?'],
    // A real ChartQA question: "color" is the noun asked about, "shows" the verb.
    ['Which color Bar shows the greatest Meat consumer?', 'Which color Bar would show the greatest Meat consumer?'],
    // Real ChartQA questions: a passive after "how many", a copula inside a clause of its own, a noun before its verb.
    ["How many times was Mark Ronson's Uptown Funk watched?", "How many times would Mark Ronson's Uptown Funk be watched?"],
    ["What's the percentage of respondents who think food near Fukushima is not safe?", 'What would be the percentage of respondents who think food near Fukushima is not safe?'],
    ['What percentage of Honduras exports came from the United States in 2019?', 'What percentage of Honduras exports would come from the United States in 2019?'],
    ['How many people were employed in the sector?', 'How many people would be employed in the sector?'],
    // Already a hypothetical, or a future ("will") that becomes one.
    ['What percentage of people would not pay that much money for a space flight?', 'What percentage of people would not pay that much money for a space flight?'],
    ['What percentage of global SVOD subscriptions will Amazon Prime Video account for by 2024?', 'What percentage of global SVOD subscriptions would Amazon Prime Video account for by 2024?'],
    ['How many blue bars exceed 520000 values?', 'How many blue bars would exceed 520000 values?'],
    ['What does the largest bar represent?', 'What would the largest bar represent?'],
    // Yes/No comparisons: "be" where the comparison starts, past a number in the subject, and for ChartQA's "Does … is".
    ['Is the sum of two smallest segment greater than largest segment?', 'Would the sum of two smallest segment be greater than largest segment?'],
    ['Is the median of all three data values equal to 32?', 'Would the median of all three data values be equal to 32?'],
    ['Does the sum of smallest two bar is greater then the value of largest bar?', 'Would the sum of smallest two bar be greater then the value of largest bar?'],
  ])('%s', (factual, hypothetical) => {
    expect(hypotheticalQuestion(factual)).toBe(hypothetical);
  });

  it('never puts "be" inside a table label', () => {
    expect(hypotheticalQuestion('Is the value of Very satisfied for 18-29 less than that for 65+?', ['Very satisfied', '18-29', '65+'])).toBe(
      'Would the value of Very satisfied for 18-29 be less than that for 65+?',
    );
    expect(hypotheticalQuestion('For Performance, is the value of Helion 7 greater than that of Quanta Pro?', ['Helion 7', 'Quanta Pro', 'Performance'])).toBe(
      'For Performance, would the value of Helion 7 be greater than that of Quanta Pro?',
    );
  });

  it('keeps every real ChartQA sample question the same question', () => {
    const qas = ['test_human.json', 'test_augmented.json'].flatMap((file) => JSON.parse(readFileSync(resolve(SAMPLE, file), 'utf8')) as { query: string }[]);
    const assumption = 'Suppose the largest value were halved.';
    const different = qas.filter((qa) => questionRelation(qa.query, `${assumption} ${hypotheticalQuestion(qa.query)}`, assumption) !== 'same');
    expect(different).toEqual([]);
  });
});
