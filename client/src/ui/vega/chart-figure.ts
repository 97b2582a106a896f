import type { ChartSpecOptions } from '@shared/chart-spec/chart-context';
import { buildChartSpec } from '@shared/chart-spec/vega-lite-spec';
import type { ChartType } from '@shared/domain/chart-types';
import type { DataTable } from '@shared/table/model';
import type { FigureSpec } from './figure-spec';

/**
 * A table drawn as a chart with the spec the server renders chart PNGs from (and its font), so
 * a chart drawn in the browser looks like the stored one would.
 */
export function chartFigure(table: DataTable, chartType: ChartType, options: ChartSpecOptions): FigureSpec {
  return { kind: 'vega-lite', spec: buildChartSpec(table, chartType, options), chartFont: true, hover: false };
}
