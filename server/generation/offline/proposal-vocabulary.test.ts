import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHART_TYPES } from '../../../shared/domain/chart-types';
import { fill } from './offline-proposals';
import { parseIntent } from '../../../shared/generation/proposal-intent';
import { PROPOSAL_TEMPLATES, slotsFor } from './proposal-vocabulary';
import { mulberry32 } from './rng';

describe('parseIntent', () => {
  it('reads the operation and its numbers from common phrasings', () => {
    expect(parseIntent('Double the value of the largest bar')).toMatchObject({ kind: 'scale', factor: 2, selectors: ['max'] });
    expect(parseIntent('Halve the smallest slice')).toMatchObject({ kind: 'scale', factor: 0.5, sign: -1 });
    expect(parseIntent('Reduce the median bar by 20 percent')).toMatchObject({ kind: 'scale', factor: 0.8, selectors: ['median'] });
    expect(parseIntent('Increase every bar by 10%')).toMatchObject({ kind: 'scale', everyRow: true });
    expect(parseIntent('Move 5 percentage points from the largest slice to the smallest slice')).toMatchObject({
      kind: 'move',
      amount: 5,
      amountInPoints: true,
      selectors: ['max', 'min'],
    });
    expect(parseIntent('Raise the smallest category until it becomes the largest')).toMatchObject({ kind: 'add', overtake: true, selectors: ['min', 'max'] });
    expect(parseIntent('Swap the values of the first and last points')).toMatchObject({ kind: 'swap', selectors: ['first', 'last'] });
    expect(parseIntent('Swap the values of two series for one category').kind).toBe('swap_series');
    expect(parseIntent('Remove the second-largest bar from the chart')).toMatchObject({ kind: 'remove_row', selectors: ['second_max'] });
    expect(parseIntent('Set the largest slice to 50 percent')).toMatchObject({ kind: 'set', amount: 50 });
    expect(parseIntent('Set the smallest bar to zero')).toMatchObject({ kind: 'set', amount: 0 });
    expect(parseIntent('Add a new category with a value above the current maximum')).toMatchObject({ kind: 'add_row', overtake: true });
    expect(parseIntent('Suppose the series grew by a constant amount every period after the first')).toMatchObject({ kind: 'trend', everyRow: false });
    expect(parseIntent('Add a new point whose coordinates are the averages of all existing points')).toMatchObject({ kind: 'add_row', average: true });
    // Repeating the last change continues the line; repeating the last value holds it, which the rules do not do.
    expect(parseIntent('Extend the line by one more period that repeats the change between its last two points.')).toMatchObject({ kind: 'add_row', continues: true });
    expect(parseIntent('Add a next period that continues the most recent change')).toMatchObject({ kind: 'add_row', continues: true });
    expect(parseIntent('Add one more period that repeats the last change')).toMatchObject({ kind: 'add_row', continues: true });
    expect(parseIntent('Add one more period that repeats the last value')).toMatchObject({ kind: null, continues: false });
    expect(parseIntent('Add a new month to the chart')).toMatchObject({ kind: 'add_row', continues: false });
    expect(parseIntent('Make the chart more interesting').kind).toBeNull();
  });

  it('reads back the operation of every template of the offline vocabulary, whatever fills its slots', () => {
    for (const chartType of CHART_TYPES) {
      const rng = mulberry32(7);
      for (const template of PROPOSAL_TEMPLATES[chartType]) {
        for (let i = 0; i < 12; i++) {
          const text = fill(template.text, slotsFor(chartType), rng);
          expect({ chartType, text, kind: parseIntent(text).kind }).toEqual({ chartType, text, kind: template.kind });
        }
      }
    }
  });
});

describe('proposals name an operation, never the question', () => {
  // The item keeps its chart's factual question: "… and ask for the average" would be a promise no item keeps.
  const PRESCRIBES = /\b(ask|asks|asking|compare|see where|how many values)\b(?! about)/i;

  it.each(CHART_TYPES)('no %s proposal the vocabulary can fill says what to ask', (chartType) => {
    const rng = mulberry32(11);
    for (const template of PROPOSAL_TEMPLATES[chartType]) {
      for (let n = 0; n < 20; n++) expect(fill(template.text, slotsFor(chartType), rng)).not.toMatch(PRESCRIBES);
    }
  });

  it('nor do the hand-written seeds, nor the Stage 1 prompt\'s examples', () => {
    const seeds = JSON.parse(readFileSync(new URL('../../../prompts/seeds.json', import.meta.url), 'utf8')) as Record<string, string[]>;
    for (const text of Object.values(seeds).flat()) expect(text).not.toMatch(PRESCRIBES);
    const stage1 = readFileSync(new URL('../../../prompts/stage1-proposals.md', import.meta.url), 'utf8');
    expect(stage1).toMatch(/Never say what to ask afterwards/);
  });
});
