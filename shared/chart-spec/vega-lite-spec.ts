import type { TopLevelSpec } from 'vega-lite';
import type { ChartType } from '../domain/chart-types';
import type { DataTable } from '../table/model';
import { barSpec, naturalOrient } from './bar-spec';
import { chartContext, type ChartContext, type ChartSpecOptions } from './chart-context';
import { drawsTransposed, transposeTable } from './chart-data';
import { transposeHighlight } from './highlight';
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
  // A line per row of a table with years across the columns: its highlight turns with it.
  const transposed = drawsTransposed(table, chartType);
  const highlight = transposed && options.highlight ? transposeHighlight(options.highlight) : options.highlight;
  const ctx = chartContext(transposed ? transposeTable(table) : table, { ...options, highlight });
  const multi = ctx.table.series.length > 1;
  switch (chartType) {
    case 'horizontal_bar':
      return barSpec(ctx, 'horizontal', multi ? 'grouped' : 'single');
    case 'grouped_bar':
      return barSpec(ctx, barOrient(ctx), multi ? 'grouped' : 'single');
    case 'stacked_bar':
      return barSpec(ctx, barOrient(ctx), multi ? stackMode(ctx) : 'single');
    case 'line':
      return seriesSpec(ctx, 'line');
    case 'area':
      return seriesSpec(ctx, 'area', multi ? (ctx.style?.stacking ?? 'none') : 'none');
    case 'pie':
      return pieSpec(ctx);
    case 'scatter':
      return multi ? scatterSpec(ctx) : seriesSpec(ctx, 'point');
    case 'vertical_bar':
      return barSpec(ctx, 'vertical', multi ? 'grouped' : 'single');
    case 'other':
      return barSpec(ctx, ctx.style?.orientation ?? 'vertical', multi ? 'grouped' : 'single');
  }
}

/** Stacked bars reach 100 % each where the original's do (an extraction read them so), else their totals. */
function stackMode(ctx: ChartContext): 'stacked' | 'percent' {
  return ctx.style?.stacking === 'percent' ? 'percent' : 'stacked';
}

/** Grouped and stacked bars run the way the original's do where its annotation says, else as their labels suit. */
function barOrient(ctx: ChartContext): 'vertical' | 'horizontal' {
  return ctx.style?.orientation ?? naturalOrient(ctx);
}
