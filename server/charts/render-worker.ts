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

/** Runs in a worker thread of the render pool: Vega's layout and the PNG encoding happen here. */
export default function render(job: RenderJob): Promise<Buffer> {
  return renderChartPng(job.table, job.chartType, job.options);
}
