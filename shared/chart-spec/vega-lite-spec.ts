import type { TopLevelSpec } from 'vega-lite';
import type { ChartType } from '../domain/chart-types';
import type { DataTable } from '../table/model';
import { barSpec, naturalOrient } from './bar-spec';
import { chartContext, type ChartSpecOptions } from './chart-context';
import { hasTimeAcrossSeries, transposeTable } from './chart-data';
import { pieSpec } from './pie-spec';
import { scatterSpec } from './scatter-spec';
import { seriesSpec } from './series-spec';

/**
 * Draws a chart from its data table as a Vega-Lite spec. The server renders it to PNG for
 * charts without an image; the browser renders the same spec for the counterfactual
 * (edited) table, so the spec depends only on its inputs: no dates, no randomness.
 */

/** Builds a Vega-Lite spec drawing `table` as a chart of type `chartType`. */
export function buildChartSpec(table: DataTable, chartType: ChartType, options: ChartSpecOptions = {}): TopLevelSpec {
  const overTime = chartType === 'line' || chartType === 'area';
  const ctx = chartContext(overTime && hasTimeAcrossSeries(table) ? transposeTable(table) : table, options);
  const multi = ctx.table.series.length > 1;
  switch (chartType) {
    case 'horizontal_bar':
      return barSpec(ctx, 'horizontal', multi ? 'grouped' : 'single');
    case 'grouped_bar':
      return barSpec(ctx, naturalOrient(ctx), multi ? 'grouped' : 'single');
    case 'stacked_bar':
      return barSpec(ctx, naturalOrient(ctx), multi ? 'stacked' : 'single');
    case 'line':
      return seriesSpec(ctx, 'line');
    case 'area':
      return seriesSpec(ctx, 'area');
    case 'pie':
      return pieSpec(ctx);
    case 'scatter':
      return multi ? scatterSpec(ctx) : seriesSpec(ctx, 'point');
    case 'vertical_bar':
    case 'other':
      return barSpec(ctx, 'vertical', multi ? 'grouped' : 'single');
  }
}
