import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../table/model';
import { marksNamedIn, typeFromQuestions } from './chart-type-from-questions';
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
  });
  it('does not read marks into other words, or into the table’s own labels', () => {
    expect(marksNamedIn('What share of online sales came from Barcelona airlines?', RANKING)).toEqual([]);
    const pubs = tableFromCells(['Venue', 'Visits'], [['Bar & grill', '4'], ['Line dancing', '2']]);
    expect(marksNamedIn('How many visits did Bar & grill get, compared with line dancing?', pubs)).toEqual([]);
  });
});

describe('typeFromQuestions', () => {
  it('draws bars where the questions name bars, with the bar type the table fits', () => {
    expect(inferChartType(YEARS)).toBe('line');
    expect(typeFromQuestions('line', YEARS, ['Which year the value of red bar is high ?'])).toBe('grouped_bar');
    expect(typeFromQuestions('pie', SHARES, ['Which bar is the tallest?'])).toBe('vertical_bar');
  });
  it('keeps an inferred bar type when the questions name bars', () => {
    expect(typeFromQuestions('stacked_bar', YEARS, ['How many bars are there?'])).toBe('stacked_bar');
  });
  it('draws a line where the questions name lines', () => {
    expect(inferChartType(COUNTRIES)).toBe('grouped_bar');
    expect(typeFromQuestions('grouped_bar', COUNTRIES, ['Which country represents in red line ?', 'Which country data below 80%?'])).toBe('line');
    expect(typeFromQuestions('area', YEARS, ['Which line is higher?'])).toBe('area');
  });
  it('draws a pie where the questions name slices, but only of a single series', () => {
    expect(typeFromQuestions('vertical_bar', SHARES, ['What does the largest slice stand for?'])).toBe('pie');
    expect(typeFromQuestions('grouped_bar', COUNTRIES, ['What does the largest slice stand for?'])).toBe('grouped_bar');
  });
  it('keeps the inference when the questions name no marks, or conflicting ones', () => {
    expect(typeFromQuestions('line', YEARS, ['What was the value in 2019?'])).toBe('line');
    expect(typeFromQuestions('line', YEARS, ['Which bar is highest?', 'Where do the lines cross?'])).toBe('line');
    expect(typeFromQuestions('line', YEARS, [])).toBe('line');
  });
});
