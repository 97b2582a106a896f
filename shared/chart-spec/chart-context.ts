import type { TopLevelSpec } from 'vega-lite';
import type { UnitSpec } from 'vega-lite/types_unstable/spec/unit.js';
import type { DataTable } from '../table/model';
import { chartData, type ChartDatum } from './chart-data';
import { CATEGORY_LABEL_LIMIT_PX, CHAR_WIDTH_EM, CHART_CONFIG, DEFAULT_CHART_HEIGHT, DEFAULT_CHART_WIDTH, TITLE_FONT_SIZE, wrapText } from './chart-style';
import type { DrawingStyle } from './drawing-style';
import { markEdited, type ChartHighlight } from './highlight';
import { timeSeriesAscending, withTimeRowsAscending } from './time-order';
import type { ValueDomain } from './value-domain';

/** What every chart family's spec is built from (the table, its data, the room to draw in) and wrapped in. */

export interface ChartSpecOptions {
  title?: string;
  /** Whole-chart size in pixels, title, axes and legend included. */
  width?: number;
  height?: number;
  /** The original's colours, series order and bar orientation, from the chart's annotation. */
  style?: DrawingStyle | null;
  /** A value axis shared with another drawing (comparedValueDomain), so the two compare mark for mark. */
  valueDomain?: ValueDomain | null;
  /** Marks to outline: what an edit changed, named as in the table given (before any transposing). */
  highlight?: ChartHighlight | null;
}

export type Layer = UnitSpec<string>;
export type Encoding = NonNullable<Layer['encoding']>;

/** Room the axes, padding and a legend take from the chart, for readability estimates. */
const AXIS_ALLOWANCE_PX = 110;
const LEGEND_ALLOWANCE_PX = 40;
/** White round the whole chart. */
export const CHART_PADDING_PX = 12;
/** Between the title's last line and the plot. */
const TITLE_OFFSET_PX = 14;
/** Category and legend labels take at most this share of a narrow chart's width (800 px charts keep the full limit). */
const LABEL_SHARE_OF_WIDTH = 0.3;

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
  /** The title's height, its gap to the plot included; 0 without one. */
  titleHeight: number;
  /** How wide a category or legend label may run before it is cut with an ellipsis. */
  labelLimit: number;
  style: DrawingStyle | null;
  valueDomain: ValueDomain | null;
}

/** `source`, and the marks `options.highlight` names, as drawn: transposed already where the drawing is. */
export function chartContext(source: DataTable, options: ChartSpecOptions): ChartContext {
  const style = options.style ?? null;
  const table = arrangeTable(source, style);
  const width = options.width ?? DEFAULT_CHART_WIDTH;
  const height = options.height ?? DEFAULT_CHART_HEIGHT;
  const title = options.title?.trim() ? wrapText(options.title.trim(), Math.floor((width - 20) / (TITLE_FONT_SIZE * CHAR_WIDTH_EM))) : undefined;
  const legend = table.series.length > 1 ? LEGEND_ALLOWANCE_PX : 0;
  const titleHeight = title ? title.length * (TITLE_FONT_SIZE + 4) + TITLE_OFFSET_PX : 0;
  return {
    table,
    data: markEdited(chartData(table), options.highlight ?? null),
    labels: [...new Set(table.rows.map((row) => row.label))],
    width,
    height,
    title,
    plotWidth: width - AXIS_ALLOWANCE_PX,
    plotHeight: height - AXIS_ALLOWANCE_PX - legend - (title?.length ?? 0) * (TITLE_FONT_SIZE + 4),
    titleHeight,
    labelLimit: Math.min(CATEGORY_LABEL_LIMIT_PX, Math.round(width * LABEL_SHARE_OF_WIDTH)),
    style,
    valueDomain: options.valueDomain ?? null,
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
    ...(ctx.title ? { title: { text: ctx.title, anchor: 'start', fontSize: TITLE_FONT_SIZE, fontWeight: 'bold', offset: TITLE_OFFSET_PX } } : {}),
    width: ctx.width,
    height: ctx.height,
    autosize: { type: 'fit', contains: 'padding' },
    padding: CHART_PADDING_PX,
    background: 'white',
    data: { values },
    ...body,
    config: CHART_CONFIG,
  };
}
