import { getPriority, setPriority } from 'node:os';
import type { ChartSpecOptions } from '../../shared/chart-spec/chart-context';
import type { ChartType } from '../../shared/domain/chart-types';
import type { DataTable } from '../../shared/table/model';
import { renderChartPng } from './render-chart';

/** One chart to draw, as sent to a render thread (structured-cloned). */
export interface RenderJob {
  table: DataTable;
  chartType: ChartType;
  options: ChartSpecOptions;
}

/**
 * How much lower than the process a render thread runs (a nice value). Drawings are made ahead
 * of need (an evaluation draws the next questions' charts while the model answers), but the
 * event loop that sends each request and takes each answer is on every question's path: when
 * the cores are busy drawing, the loop must still get one at once, or every call waits for it.
 */
const RENDER_THREAD_NICENESS = 10;

// On Linux a thread has a priority of its own and setpriority(0) names the calling thread; on
// other systems it would lower the whole process, the event loop with it.
if (process.platform === 'linux') {
  try {
    setPriority(RENDER_THREAD_NICENESS);
  } catch {
    // Not permitted here (a sandbox): the thread draws at the process's priority.
  }
}

/** Runs in a worker thread of the render pool: Vega's layout and the rasterising happen here (the PNG encoding on libuv's pool). */
export default function render(job: RenderJob): Promise<Buffer> {
  return renderChartPng(job.table, job.chartType, job.options);
}

/** This thread's nice value (its lowered priority, where the system allows it). */
export function priority(): number {
  return getPriority();
}
