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

  it('reads a short squashed label spaced, so "not safe" names Notsafe and not Safe (real: a ChartQA pie of DK, Notsafe, Safe)', () => {
    expect(labels("What's the percentage of respondents who think food near Fukushima is not safe?", ['DK', 'Notsafe', 'Safe'])).toEqual(['Notsafe']);
    expect(labels('Is the Safe share above 10?', ['DK', 'Notsafe', 'Safe'])).toEqual(['Safe']);
  });

  it('does not space a short label into a question by chance', () => {
    expect(labels('Is the value of u s higher?', ['US', 'Canada'])).toEqual([]);
  });

  it('answers a table asked about again as the first time, whatever other tables were asked about between', () => {
    // Same first label, same count: only the other label decides whether "online" names the first.
    const sales = ['Online sales', 'Store sales'];
    const online = ['Online sales', 'Online ads'];
    const query = 'How much did online grow in 2020?';
    expect(labels(query, sales)).toEqual(['Online sales']);
    expect(labels(query, online)).toEqual([]);
    expect(labels(query, sales)).toEqual(['Online sales']);
    // A question naming a label twice finds it where it first stands, each time it is asked.
    const twice = 'Is Store sales above Online sales, and Store sales above 5?';
    const first = tableMentions(twice, sales, ['Value']).rows;
    expect(first.map((m) => [m.label, m.at])).toEqual([
      ['Store sales', 4],
      ['Online sales', 22],
    ]);
    expect(tableMentions(twice, sales, ['Value']).rows).toEqual(first);
    // Past the tables kept, the first is made again, not mistaken for another.
    for (let n = 0; n < 257; n++) tableMentions(query, [`Region ${n}`, `Online sales ${n}`], ['Value']);
    expect(labels(query, online)).toEqual([]);
    expect(labels(query, sales)).toEqual(['Online sales']);
  });
});
