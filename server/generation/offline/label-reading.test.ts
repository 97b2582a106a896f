import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../shared/table/program';
import { buildTable } from '../../../test/support/table-fixtures';
import { asksStatedValue, asksWhatColourStandsFor, labelDisagreement, standInPrograms } from './label-reading';

const arrests = buildTable(`
  Characteristic | Number of arrests
  2009 | 13687241
  2008 | 14005615
  1991 | 14211900
  1990 | 14195100
`);
const goals = buildTable(`
  Characteristic | Goals scored
  Romelu Lukaku | 57
  Eden Hazard | 32
  Paul Van Himst | 30
`);
const internet = buildTable(`
  Characteristic | Africa | Europe
  2012 | 14.2 | 67.3
  2010 | 9.9 | 63.2
`);

describe('labelDisagreement: the plainest reading of a question its label contradicts', () => {
  it('names the cell a plain lookup reads when the label is another row’s value (ChartQA two_col_434, multi_col_441)', () => {
    expect(labelDisagreement('What was the number of arrests in 1990?', '14005615', arrests)).toEqual({ reading: "1990's Number of arrests", value: '14195100' });
    expect(labelDisagreement('What was the internet penetration rate in Africa in 2012?', '9.9', internet)).toEqual({ reading: "2012's Africa", value: '14.2' });
  });

  it('names the extreme a plain "who led" reads when the label is another row (ChartQA two_col_2886)', () => {
    expect(labelDisagreement('Who is the all time leader in goals scored for the national football team of Belgium?', 'Eden Hazard', goals)).toEqual({ reading: 'the highest Goals scored', value: 'Romelu Lukaku' });
  });

  it('agrees within the label’s rounding and 0.5 %, and leaves alone what it does not read plainly', () => {
    expect(labelDisagreement('What was the number of arrests in 1990?', '14195100', arrests)).toBeNull();
    expect(labelDisagreement('What was the number of arrests in 1990?', '14.2 million', arrests)).toBeNull();
    expect(labelDisagreement('What was the internet penetration rate in Africa in 2012?', '14', internet)).toBeNull();
    expect(labelDisagreement('Who is the all time leader in goals scored?', 'Romelu Lukaku', goals)).toBeNull();
    // Two cells, a change, a second place, a series not named on a table of several: not a plain reading.
    expect(labelDisagreement('What was the difference in arrests between 1990 and 2008?', '5', arrests)).toBeNull();
    expect(labelDisagreement('How much did arrests increase in 1991?', '5', arrests)).toBeNull();
    expect(labelDisagreement('Who scored the second most goals?', 'Paul Van Himst', goals)).toBeNull();
    expect(labelDisagreement('What was the rate in 2012?', '9.9', internet)).toBeNull();
  });
});

describe('standInPrograms: what reproduces the label without reading the question', () => {
  it('reads the one cell holding a number label, the series a row label tops or bottoms', () => {
    expect(standInPrograms('14005615', arrests).map((p) => p.program)).toEqual(['value("2008")']);
    expect(standInPrograms('Eden Hazard', goals)).toEqual([]);
    const [top] = standInPrograms('2012', internet);
    expect(top).toMatchObject({ program: 'argmax(series("Africa"))', shape: 'argmax', series: ['Africa'], answer: '2012' });
    expect(standInPrograms('2012', internet).map((p) => p.program)).toEqual(['argmax(series("Africa"))', 'argmax(series("Europe"))']);
    for (const p of standInPrograms('2012', internet)) expect(runProgram(internet, p.program)).toMatchObject({ ok: true, answer: '2012' });
  });

  it('offers nothing for a number on no bar, or on several', () => {
    expect(standInPrograms('0.08', arrests)).toEqual([]);
    const twice = buildTable(`
      Country | Days
      Thailand | 50
      South Korea | 50
    `);
    expect(standInPrograms('50', twice)).toEqual([]);
  });
});

describe('questions no data edit makes an item of', () => {
  it('a Yes/No asking whether one value is a number the table holds (ChartQA: "Is the value of light green bar 35 in 1989?")', () => {
    const votes = buildTable(`
      Year | Center-left | Center-right
      1989 | 35 | 40
      1994 | 30 | 45
    `);
    expect(asksStatedValue('Is the value of light green bar 35 in 1989?', 'Yes', votes)).toBe(true);
    expect(asksStatedValue('Is the value of light green bar 36 in 1989?', 'No', votes)).toBe(false);
    expect(asksStatedValue('Is the value of light green bar greater than 35 in 1989?', 'No', votes)).toBe(false);
    expect(asksStatedValue('What is the value in 1989?', '35', votes)).toBe(false);
  });

  it('what a colour stands for (ChartQA: "Which country represents in red line ?" → Benin)', () => {
    const lines = buildTable(`
      Entity | 1990 | 1995
      Albania | 83.9 | 76.7
      Benin | 86.4 | 86.1
    `);
    expect(asksWhatColourStandsFor('Which country represents in red line ?', 'Benin', lines)).toBe(true);
    expect(asksWhatColourStandsFor('Which country is highest in the red line?', 'Benin', lines)).toBe(false);
    expect(asksWhatColourStandsFor('Which country represents the highest value?', 'Benin', lines)).toBe(false);
    // The other way round (real: a ChartQA bar chart of five countries): the colour a named entry is drawn in.
    expect(asksWhatColourStandsFor('What color does Benin represent?', 'Pink', lines)).toBe(true);
    expect(asksWhatColourStandsFor('What is the colour of Albania?', 'Light blue', lines)).toBe(true);
    // Which bar is largest can move, and its colour with it.
    expect(asksWhatColourStandsFor("What's the color of largest bar?", 'Pink', lines)).toBe(false);
  });
});
