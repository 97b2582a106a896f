import { describe, expect, it } from 'vitest';
import { tableMentions } from './label-mentions';

const labels = (query: string, rows: string[], series: string[] = ['Value']) => {
  const found = tableMentions(query, rows, series);
  return [...found.rows, ...found.series].map((m) => m.label);
};

describe('tableMentions', () => {
  it('finds a label the question spaces or hyphenates otherwise (real: ChartQA 5417, 47203618002668)', () => {
    const rows = ['Use militaryforce wisely', 'Handle an international crisis'];
    expect(labels('Is the value of Use military force wisely more than Handle an international crisis?', rows)).toEqual(rows);
    expect(labels('Is Poor sanitation more than No access to hand-washing facility?', ['Poor sanitation', 'No access to handwashing facility'])).toEqual([
      'Poor sanitation',
      'No access to handwashing facility',
    ]);
  });

  it('does not space a short label into a question by chance', () => {
    expect(labels('Is the value of u s higher?', ['US', 'Canada'])).toEqual([]);
  });
});
