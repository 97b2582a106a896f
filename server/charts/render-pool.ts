import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ChartSpecOptions } from '../../shared/chart-spec/chart-context';
import type { ChartType } from '../../shared/domain/chart-types';
import type { DataTable } from '../../shared/table/model';
import { renderChartPng } from './render-chart';
import type { RenderJob } from './render-worker';

/**
 * Drawing a chart costs tens of milliseconds of JavaScript (Vega's layout, the PNG encoding):
 * on the event loop that stalls every request and every evaluation worker while a run draws
 * charts that have no PNG. A thread pool draws them off the loop. HQA_RENDER_THREADS=0 draws
 * in-process (one core machines; debugging).
 */
const WORKER = fileURLToPath(new URL('./render-worker-entry.cjs', import.meta.url));
/** Idle threads exit, so a CLI command or a test does not linger on them. */
const IDLE_TIMEOUT_MS = 10_000;
/**
 * Jobs a thread holds at once. A drawing is Vega's layout on the thread, then resvg's
 * rasterising on libuv's pool (renderAsync): with two jobs, the thread lays out the next chart
 * while the last one rasterises, instead of waiting for it. JavaScript still runs one job at a time.
 */
const JOBS_PER_THREAD = 2;

let pool: Piscina<RenderJob, Uint8Array> | null = null;

function threads(): number {
  const value = Number(process.env.HQA_RENDER_THREADS ?? 1);
  return Number.isInteger(value) && value >= 0 ? value : 1;
}

export async function renderChartPngOffThread(table: DataTable, chartType: ChartType, options: ChartSpecOptions = {}): Promise<Buffer> {
  const count = threads();
  if (count === 0) return renderChartPng(table, chartType, options);
  // The thread starts from a JavaScript entry that loads the TypeScript worker through tsx.
  pool ??= new Piscina<RenderJob, Uint8Array>({ filename: WORKER, maxThreads: count, minThreads: 0, idleTimeout: IDLE_TIMEOUT_MS, concurrentTasksPerWorker: JOBS_PER_THREAD });
  const png = await pool.run({ table, chartType, options });
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}

/** Ends the render threads (server shutdown, end of a CLI command). */
export async function closeRenderPool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.destroy();
}
