import type { ChartSummary } from '../../shared/api/charts';
import type { ChartType } from '../../shared/domain/chart-types';
import type { AppContext } from '../app-context';
import { notFound } from '../http/http-error';
import { getChartSummary, setChartType } from './chart-queries';

/** A curator sets a chart's type: stored as the curator's choice, and every client told (`chart.updated`). */
export function changeChartType(ctx: AppContext, chartId: number, chartType: ChartType): ChartSummary {
  if (!setChartType(ctx.db, chartId, chartType, 'curator')) throw notFound(`chart ${chartId}`);
  const chart = getChartSummary(ctx.db, chartId);
  if (!chart) throw notFound(`chart ${chartId}`);
  ctx.publish('chart.updated', { chart });
  return chart;
}
