import type { TopLevelSpec } from 'vega-lite';
import type { UnitSpec } from 'vega-lite/types_unstable/spec/unit.js';
import type { DataTable } from '../table/model';
import { chartData, type ChartDatum } from './chart-data';
import { CHAR_WIDTH_EM, CHART_CONFIG, DEFAULT_CHART_HEIGHT, DEFAULT_CHART_WIDTH, TITLE_FONT_SIZE, wrapText } from './chart-style';
import type { DrawingStyle } from './drawing-style';
import { timeSeriesAscending, withTimeRowsAscending } from './time-order';

/** What every chart family's spec is built from (the table, its data, the room to draw in) and wrapped in. */

export interface ChartSpecOptions {
  title?: string;
  /** Whole-chart size in pixels, title, axes and legend included. */
  width?: number;
  height?: number;
  /** The original's colours and series order, from the chart's annotation. */
  style?: DrawingStyle | null;
}

export type Layer = UnitSpec<string>;
export type Encoding = NonNullable<Layer['encoding']>;

/** Room the axes, padding and a legend take from the chart, for readability estimates. */
const AXIS_ALLOWANCE_PX = 110;
const LEGEND_ALLOWANCE_PX = 40;

export interface ChartContext {
  /** The table as drawn: time rows earliest first, series in the original's order. */
  table: DataTable;
  data: ChartDatum[];
  /** Row labels without repeats, in row order: the category axis's domain. */
  labels: string[];
  width: number;
  height: number;
  title: string[] | undefined;
  plotWidth: number;
  plotHeight: number;
  style: DrawingStyle | null;
}

export function chartContext(source: DataTable, options: ChartSpecOptions): ChartContext {
  const style = options.style ?? null;
  const table = arrangeTable(source, style);
  const width = options.width ?? DEFAULT_CHART_WIDTH;
  const height = options.height ?? DEFAULT_CHART_HEIGHT;
  const title = options.title?.trim() ? wrapText(options.title.trim(), Math.floor((width - 20) / (TITLE_FONT_SIZE * CHAR_WIDTH_EM))) : undefined;
  const legend = table.series.length > 1 ? LEGEND_ALLOWANCE_PX : 0;
  return {
    table,
    data: chartData(table),
    labels: [...new Set(table.rows.map((row) => row.label))],
    width,
    height,
    title,
    plotWidth: width - AXIS_ALLOWANCE_PX,
    plotHeight: height - AXIS_ALLOWANCE_PX - legend - (title?.length ?? 0) * (TITLE_FONT_SIZE + 4),
    style,
  };
}

/**
 * The table in the order the chart draws it: time rows earliest first whatever the table's
 * order; series as the annotation lists them, else years across the columns earliest first.
 */
export function arrangeTable(table: DataTable, style: DrawingStyle | null): DataTable {
  const rowsInTime = withTimeRowsAscending(table);
  // Series are moved by name: a table naming two series alike keeps its order.
  if (new Set(rowsInTime.series).size !== rowsInTime.series.length) return rowsInTime;
  const named = (style?.series_order ?? []).filter((name) => rowsInTime.series.includes(name));
  const order = named.length > 0 ? [...named, ...rowsInTime.series.filter((name) => !named.includes(name))] : timeSeriesAscending(rowsInTime.series);
  if (order.every((name, i) => rowsInTime.series[i] === name)) return rowsInTime;
  const from = order.map((name) => rowsInTime.series.indexOf(name));
  return {
    ...rowsInTime,
    series: order,
    rows: rowsInTime.rows.map((row) => ({ ...row, values: from.map((i) => row.values[i] ?? null), raw: from.map((i) => row.raw[i] ?? '') })),
  };
}

export function topLevel(ctx: ChartContext, body: Pick<Extract<TopLevelSpec, { layer: unknown }>, 'encoding' | 'layer'>, values: object[] = ctx.data): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    ...(ctx.title ? { title: { text: ctx.title, anchor: 'start', fontSize: TITLE_FONT_SIZE, fontWeight: 'bold', offset: 14 } } : {}),
    width: ctx.width,
    height: ctx.height,
    autosize: { type: 'fit', contains: 'padding' },
    padding: 12,
    background: 'white',
    data: { values },
    ...body,
    config: CHART_CONFIG,
  };
}
