import { describe, expect, it } from 'vitest';
import { demoCharts } from '../demo/demo-charts';
import { offlineItem, offlineProposals, type OfflineItemInput } from './offline';
import { offlineItemOffThread } from './offline-pool';

/** Real demo questions, each with a pool like a run's: whatever the rules make of them, thread and loop must agree. */
function inputs(): OfflineItemInput[] {
  return [...demoCharts({ charts: 6, seed: 9 })].flatMap((chart) => {
    const pool = offlineProposals({ chartType: chart.type, examples: [], count: 6, seed: 1 }).map((text, i) => ({ id: i + 1, text }));
    const [proposal, ...alternatives] = pool;
    if (!proposal) return [];
    return chart.questions.map((qa, i) => ({ table: chart.table, chartType: chart.type, title: chart.title, qa, proposal, alternatives, seed: 100 + i }));
  });
}

describe('the offline thread pool', () => {
  it('builds exactly what the rules build in-process, off the event loop, for every caller at once', async () => {
    const cases = inputs();
    expect(cases.length).toBeGreaterThan(5);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const built = await Promise.all(cases.map((input) => offlineItemOffThread(input)));
    clearInterval(ticker);
    expect(built).toEqual(cases.map((input) => offlineItem(input)));
    // The loop kept turning while the thread worked (a stalled loop would not tick).
    expect(ticks).toBeGreaterThan(0);
  });

  it('builds in-process when HQA_OFFLINE_THREADS is 0', async () => {
    const before = process.env.HQA_OFFLINE_THREADS;
    process.env.HQA_OFFLINE_THREADS = '0';
    try {
      const [input] = inputs();
      if (!input) throw new Error('no demo question');
      expect(await offlineItemOffThread(input)).toEqual(offlineItem(input));
    } finally {
      if (before === undefined) delete process.env.HQA_OFFLINE_THREADS;
      else process.env.HQA_OFFLINE_THREADS = before;
    }
  });
});
