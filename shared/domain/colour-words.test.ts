import { describe, expect, it } from 'vitest';
import { colourWordsIn } from './colour-words';

describe('colourWordsIn', () => {
  it('finds colour names with their shade, as ChartQA questions write them', () => {
    expect(colourWordsIn('Is the value of light green bar 35 in 1989?')).toEqual(['light green']);
    expect(colourWordsIn('What is the average of the smallest gray bar and largest light blue bar?')).toEqual(['gray', 'light blue']);
    expect(colourWordsIn('What is the difference in value between Green bar and Orange bar?')).toEqual(['green', 'orange']);
    expect(colourWordsIn('Which country represents in red line ?')).toEqual(['red']);
    expect(colourWordsIn('Is the navy-blue segment bigger than the dark grey one?')).toEqual(['navy blue', 'dark grey']);
    expect(colourWordsIn('Which is the reddish bar?')).toEqual(['reddish']);
  });
  it('counts questions about the colours themselves', () => {
    expect(colourWordsIn('How many colors are used to represent the bar graph?')).toEqual(['colors']);
  });
  it('does not take names for colours', () => {
    expect(colourWordsIn('How much did Red Bull spend on the White House campaign?')).toEqual([]);
    expect(colourWordsIn('What share of respondents are white?', ['White', 'Black', 'Hispanic'])).toEqual([]);
    expect(colourWordsIn('How many seats did the Green party win?', ['Green party', 'Labour'])).toEqual([]);
    expect(colourWordsIn('Which country had the highest redemption rate, Greenland or Bluefield?')).toEqual([]);
  });
  it('reads a table label in the question whatever its case or script, and only there', () => {
    expect(colourWordsIn('How many seats did the GREEN PARTY win in the red bars?', ['Green party', 'Labour'])).toEqual(['red']);
    expect(colourWordsIn('Did Vert Écologie gain more than Orange Rouge in the blue bar?', ['vert écologie', 'Orange Rouge'])).toEqual(['blue']);
    expect(colourWordsIn('Is the green bar taller than the red one?', ['Green party', 'Red Cross'])).toEqual(['green', 'red']);
  });
  it('finds nothing in questions about the data alone', () => {
    expect(colourWordsIn('What was the infant mortality rate in the United States in 2019?')).toEqual([]);
  });
});
