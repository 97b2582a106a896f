import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../../shared/table/model';
import { renderChartPng } from './render-chart';
import { getPriority } from 'node:os';
import { renderChartPngOffThread, renderThreadPriority } from './render-pool';

const TABLE = tableFromCells(
  ['Country', '2019', '2020'],
  [
    ['Norway', '12.5', '13.1'],
    ['Chile', '8', '9.4'],
    ['Kenya', '3.2', '-'],
  ],
);

describe('the render thread pool', () => {
  it('draws the very PNG the in-process renderer draws, off the event loop, for every caller at once', async () => {
    const expected = await renderChartPng(TABLE, 'grouped_bar', { title: 'Growth' });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const drawn = await Promise.all([1, 2, 3].map(() => renderChartPngOffThread(TABLE, 'grouped_bar', { title: 'Growth' })));
    clearInterval(ticker);
    for (const png of drawn) expect(png.equals(expected)).toBe(true);
    // The loop kept turning while the thread drew (a stalled loop would not tick).
    expect(ticks).toBeGreaterThan(0);
  });

  it.runIf(process.platform === 'linux')('draws at a lower priority than the event loop (Linux: a thread has its own)', async () => {
    const loop = getPriority();
    // Nice 10 (render-worker.ts), set on the thread alone: the loop's own is untouched.
    expect(await renderThreadPriority()).toBe(10);
    expect(getPriority()).toBe(loop);
  });

  it('draws in-process when HQA_RENDER_THREADS is 0', async () => {
    const before = process.env.HQA_RENDER_THREADS;
    process.env.HQA_RENDER_THREADS = '0';
    try {
      const png = await renderChartPngOffThread(TABLE, 'line', {});
      expect(png.equals(await renderChartPng(TABLE, 'line', {}))).toBe(true);
    } finally {
      if (before === undefined) delete process.env.HQA_RENDER_THREADS;
      else process.env.HQA_RENDER_THREADS = before;
    }
  });
});
