import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../table/model';
import { barDirectionsNamedIn, marksNamedIn, typeFromQuestions } from './chart-type-from-questions';
import { inferChartType } from './infer-chart-type';

const YEARS = tableFromCells(
  ['Year', 'Western Europe', 'North America'],
  ['2020', '2019', '2018', '2017', '2016'].map((year, i) => [year, String(40 + i), String(30 + i)]),
);
const COUNTRIES = tableFromCells(['Entity', '1990', '2000'], [['Albania', '84', '88'], ['Benin', '86', '84']]);
const SHARES = tableFromCells(['Answer', 'Share'], [['Yes', '16%'], ['No', '11%'], ['Maybe', '73%']]);
const RANKING = tableFromCells(['Country', 'Score'], [['Chile', '4'], ['Peru', '6']]);

describe('marksNamedIn', () => {
  it('reads the marks ChartQA questions name', () => {
    expect(marksNamedIn('How many blue bars exceed 520000 values?', RANKING)).toEqual(['bar']);
    expect(marksNamedIn('Which country represents in red line ?', RANKING)).toEqual(['line']);
    expect(marksNamedIn('What share does the largest slice hold?', RANKING)).toEqual(['pie']);
    expect(marksNamedIn('Is the pie chart about tyres?', RANKING)).toEqual(['pie']);
    expect(marksNamedIn('How many colors are used to represent the bar graph?', RANKING)).toEqual(['bar']);
    expect(marksNamedIn('Divide second largest segment by smallest segment', RANKING)).toEqual(['segment']);
  });
  it('does not read marks into other words, or into the table’s own labels', () => {
    expect(marksNamedIn('What share of online sales came from Barcelona airlines?', RANKING)).toEqual([]);
    const pubs = tableFromCells(['Venue', 'Visits'], [['Bar & grill', '4'], ['Line dancing', '2']]);
    expect(marksNamedIn('How many visits did Bar & grill get, compared with line dancing?', pubs)).toEqual([]);
  });
});

const read = typeFromQuestions;
const guessed = (chartType: string) => ({ chartType, decided: false });
const decided = (chartType: string) => ({ chartType, decided: true });

describe('barDirectionsNamedIn', () => {
  it('reads bars counted down the chart as horizontal, bars counted across it as vertical', () => {
    expect(barDirectionsNamedIn('what the value of 1st uppermost bar?', RANKING)).toEqual(['horizontal']);
    expect(barDirectionsNamedIn('What is the percentage value of the first gray bar from the top?', RANKING)).toEqual(['horizontal']);
    expect(barDirectionsNamedIn('Is the median greater than the average of leftmost and rightmost bars?', RANKING)).toEqual(['vertical']);
    expect(barDirectionsNamedIn('Are the values sorted increasingly from left to right?', RANKING)).toEqual(['vertical']);
  });
  it('reads no direction into words about the data or the table’s own labels', () => {
    expect(barDirectionsNamedIn('What category accounted for five percent of top 100 pins?', RANKING)).toEqual([]);
    expect(barDirectionsNamedIn('Which is the lowest bar?', RANKING)).toEqual([]);
    const parties = tableFromCells(['Party', 'Seats'], [['Left to right alliance', '4'], ['Topmost', '2']]);
    expect(barDirectionsNamedIn('How many seats did Left to right alliance win?', parties)).toEqual([]);
  });
});

describe('typeFromQuestions', () => {
  it('draws bars where the questions name bars, with the bar type the table fits, and leaves that type unconfirmed', () => {
    expect(inferChartType(YEARS)).toBe('line');
    expect(read('line', YEARS, ['Which year the value of red bar is high ?'])).toEqual(guessed('grouped_bar'));
    expect(read('pie', SHARES, ['Which bar is the tallest?'])).toEqual(guessed('vertical_bar'));
    expect(read('stacked_bar', YEARS, ['How many bars are there?'])).toEqual(guessed('stacked_bar'));
  });
  it('decides one series of bars when the questions say which way they run', () => {
    expect(read('vertical_bar', RANKING, ['What is the color of uppermost bar?', 'Does the sum of smallest three bars exceed the largest bar?'])).toEqual(decided('horizontal_bar'));
    expect(read('line', RANKING, ['Is the leftmost bar higher than the rightmost bar?'])).toEqual(decided('vertical_bar'));
    // Both directions named: the words contradict each other, the table's guess stands.
    expect(read('vertical_bar', RANKING, ['Which is the uppermost bar?', 'Which is the leftmost bar?'])).toEqual(guessed('vertical_bar'));
    // Several series: grouped or stacked is not in the words, whichever way the bars run.
    expect(read('grouped_bar', YEARS, ['What is the first gray bar from the top?'])).toEqual(guessed('grouped_bar'));
  });
  it('decides a line where the questions name lines', () => {
    expect(inferChartType(COUNTRIES)).toBe('grouped_bar');
    expect(read('grouped_bar', COUNTRIES, ['Which country represents in red line ?', 'Which country data below 80%?'])).toEqual(decided('line'));
    expect(read('area', YEARS, ['Which line is higher?'])).toEqual(decided('area'));
  });
  it('decides a pie where the questions name slices or segments, but only of a single series', () => {
    expect(read('vertical_bar', SHARES, ['What does the largest slice stand for?'])).toEqual(decided('pie'));
    expect(read('horizontal_bar', SHARES, ['What is the color of the largest segment?'])).toEqual(decided('pie'));
    expect(read('grouped_bar', COUNTRIES, ['What does the largest slice stand for?'])).toEqual(guessed('grouped_bar'));
  });
  it('decides a stacked bar where the questions name segments of several series', () => {
    expect(read('grouped_bar', COUNTRIES, ['Is the grey segment of the second bar larger than 20?'])).toEqual(decided('stacked_bar'));
    expect(read('grouped_bar', COUNTRIES, ['Which segment is the largest?'])).toEqual(decided('stacked_bar'));
  });
  it('keeps the inference, undecided, when the questions name no marks, or conflicting ones', () => {
    expect(read('line', YEARS, ['What was the value in 2019?'])).toEqual(guessed('line'));
    expect(read('line', YEARS, ['In what year did the volume peak?'])).toEqual(guessed('line'));
    expect(read('line', YEARS, ['Which bar is highest?', 'Where do the lines cross?'])).toEqual(guessed('line'));
    expect(read('line', YEARS, [])).toEqual(guessed('line'));
  });
});
