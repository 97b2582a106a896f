import { describe, expect, it } from 'vitest';
import { loopSteps } from './next-steps';

const overview = (setup: { charts?: number; questions?: number; runs?: number; items?: number }, accepted = 0, rejected = 0, waiting = 0) => ({
  setup: { charts: 0, questions: 0, runs: 0, items: 0, ...setup },
  queue: { pending: waiting, in_review: 0, total: waiting },
  decided: { accepted, rejected },
});

describe('the loop steps a first overview names', () => {
  it('sends an empty database to import, and every step after it is still to do', () => {
    const { steps, next } = loopSteps(overview({}));
    expect(next).toMatchObject({ key: 'import', to: '/splits' });
    expect(steps.map((step) => [step.key, step.done])).toEqual([
      ['import', false],
      ['run', false],
      ['review', false],
      ['export', false],
    ]);
  });

  it('moves on as the loop does: run, then review, then export; none once items are accepted', () => {
    expect(loopSteps(overview({ charts: 5, questions: 12 })).next).toMatchObject({ key: 'run', to: '/runs', detail: 'Start a generation run: the offline engine needs no API key' });
    expect(loopSteps(overview({ charts: 5, questions: 12, runs: 1, items: 4 }, 0, 0, 4)).next).toMatchObject({ key: 'review', detail: '4 items waiting for reviewers' });
    expect(loopSteps(overview({ charts: 5, questions: 12, runs: 1, items: 4 }, 0, 2, 2)).next).toMatchObject({ key: 'export', to: '/evaluation' });
    expect(loopSteps(overview({ charts: 5, questions: 12, runs: 1, items: 4 }, 1, 1, 2)).next).toBeNull();
  });

  it('says what is wrong when a step half happened: charts without questions, a run without items', () => {
    expect(loopSteps(overview({ charts: 3 })).next?.detail).toBe('3 charts but no factual question: import a split with its question files');
    expect(loopSteps(overview({ charts: 3, questions: 9, runs: 2 })).next?.detail).toBe('2 runs but no item yet: open a run to see why');
  });
});
