import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../shared/random';
import { stratifiedSample, type SampleQa } from './stratified-sample';

/** `charts` charts of `type`, each with `perChart` QAs, ids counting on from `firstId`. */
function qasOf(type: string, charts: number, perChart: number, firstId: number, firstChart: number): SampleQa[] {
  const out: SampleQa[] = [];
  for (let c = 0; c < charts; c++) {
    for (let q = 0; q < perChart; q++) out.push({ id: firstId + c * perChart + q, chartId: firstChart + c, chartType: type });
  }
  return out;
}

// Skewed like real splits: many bars on many charts, few pies and one scatter chart.
const SKEWED = [...qasOf('vertical_bar', 40, 3, 1, 1), ...qasOf('pie', 3, 2, 1000, 100), ...qasOf('scatter', 1, 2, 2000, 200)];

const count = (qas: SampleQa[], key: (qa: SampleQa) => string | number) => {
  const counts = new Map<string | number, number>();
  for (const qa of qas) counts.set(key(qa), (counts.get(key(qa)) ?? 0) + 1);
  return counts;
};

describe('stratifiedSample', () => {
  it('gives every chart type a QA before any type gets a second', () => {
    const sample = stratifiedSample(SKEWED, 3, mulberry32(1));
    expect(new Set(sample.map((q) => q.chartType))).toEqual(new Set(['vertical_bar', 'pie', 'scatter']));
  });

  it('takes a small type whole, then fills up from the big one', () => {
    const sample = stratifiedSample(SKEWED, 20, mulberry32(2));
    expect(Object.fromEntries(count(sample, (q) => q.chartType))).toEqual({ vertical_bar: 12, pie: 6, scatter: 2 });
  });

  it('goes round the charts of a type: no chart twice before every chart once', () => {
    const sample = stratifiedSample(SKEWED, 60, mulberry32(3)).filter((q) => q.chartType === 'vertical_bar');
    const firstRound = sample.slice(0, 40);
    expect(new Set(firstRound.map((q) => q.chartId)).size).toBe(40);
    expect([...count(sample, (q) => q.chartId).values()].every((n) => n <= 2)).toBe(true);
  });

  it('depends on the seed, not on the order the QAs come in', () => {
    const reversed = [...SKEWED].reverse();
    const a = stratifiedSample(SKEWED, 25, mulberry32(7)).map((q) => q.id);
    expect(stratifiedSample(reversed, 25, mulberry32(7)).map((q) => q.id)).toEqual(a);
    expect(stratifiedSample(SKEWED, 25, mulberry32(8)).map((q) => q.id)).not.toEqual(a);
  });

  it('returns every QA once when the limit exceeds them, and nothing for a limit of 0', () => {
    const all = stratifiedSample(SKEWED, 10_000, mulberry32(4));
    expect(all).toHaveLength(SKEWED.length);
    expect(new Set(all.map((q) => q.id)).size).toBe(SKEWED.length);
    expect(stratifiedSample(SKEWED, 0, mulberry32(4))).toEqual([]);
  });
});
