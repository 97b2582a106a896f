import { getPriority } from 'node:os';
import type { ChartSpecOptions } from '../../shared/chart-spec/chart-context';
import type { ChartType } from '../../shared/domain/chart-types';
import type { DataTable } from '../../shared/table/model';
import type { RenderJob } from './render-worker';
import { threadPool } from '../jobs/thread-pool';

/**
 * Drawing a chart costs tens of milliseconds of JavaScript (Vega's layout, the PNG encoding):
 * on the event loop that stalls every request and every evaluation worker while a run draws
 * charts that have no PNG. A thread pool draws them off the loop. HQA_RENDER_THREADS=0 draws
 * in-process (one core machines; debugging). A thread lays out and rasterises at a lowered
 * priority (render-worker.ts); the PNG encoding runs on libuv's pool.
 */
/** Jobs a thread holds at once: with two, it lays out the next chart while the last one's PNG is encoded. */
const JOBS_PER_THREAD = 2;

/** The render threads (the shared `threadPool`; HQA_RENDER_THREADS=0 draws in-process). */
const pool = threadPool<RenderJob | undefined, Uint8Array | Buffer | number>({
  entry: new URL('./render-worker-entry.cjs', import.meta.url),
  threadsVariable: 'HQA_RENDER_THREADS',
  // Loaded on the first in-process drawing only: Vega, Vega-Lite and sharp are ~1 s of a server's start, and the threads load their own.
  inProcess: async (job, task) => (task === 'priority' || !job ? getPriority() : (await import('./render-chart')).renderChartPng(job.table, job.chartType, job.options)),
  tasksPerThread: JOBS_PER_THREAD,
});

export async function renderChartPngOffThread(table: DataTable, chartType: ChartType, options: ChartSpecOptions = {}): Promise<Buffer> {
  const png = await pool.run({ table, chartType, options });
  if (typeof png === 'number') throw new Error('a render thread answered a drawing with a number');
  return Buffer.isBuffer(png) ? png : Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}

/** The nice value a render thread draws at (the process's own with HQA_RENDER_THREADS=0): diagnostics and its test. */
export async function renderThreadPriority(): Promise<number> {
  const value = await pool.run(undefined, 'priority');
  if (typeof value !== 'number') throw new Error('a render thread did not answer its priority with a number');
  return value;
}
