import type { Config, TopLevelSpec } from 'vega-lite';
import type { UnitSpec } from 'vega-lite/types_unstable/spec/unit.js';
import type { ChartType } from '../domain/chart-types';
import { parseCellValue } from '../table/cell';
import type { DataTable } from '../table/model';

/**
 * Draws a chart from its data table as a Vega-Lite spec. The server renders it to PNG for
 * charts without an image; the browser renders the same spec for the counterfactual
 * (edited) table, so the spec depends only on its inputs: no dates, no randomness.
 */

export interface ChartSpecOptions {
  title?: string;
  /** Whole-chart size in pixels, title, axes and legend included. */
  width?: number;
  height?: number;
}

/** ChartQA's PNGs are 800×557. */
export const DEFAULT_CHART_WIDTH = 800;
export const DEFAULT_CHART_HEIGHT = 557;
export const CHART_FONT = 'Roboto';

/** One table cell with a number, in long format; missing cells have no datum. */
export interface ChartDatum {
  label: string;
  series: string;
  value: number;
  /** The value as a chart label: the cell's own text (`32.7%`) while it still matches. */
  text: string;
  row: number;
  seriesIndex: number;
}

type Layer = UnitSpec<string>;
type Encoding = NonNullable<Layer['encoding']>;
type Orient = 'vertical' | 'horizontal';
type BarMode = 'single' | 'grouped' | 'stacked';

/** Tableau-10 hues then ten darker or brighter ones, each with the text colour that stays readable on it. */
const PALETTE: readonly { fill: string; ink: string }[] = [
  { fill: '#2f6fd6', ink: '#ffffff' },
  { fill: '#f28e2b', ink: '#1a1a1a' },
  { fill: '#e15759', ink: '#ffffff' },
  { fill: '#76b7b2', ink: '#1a1a1a' },
  { fill: '#59a14f', ink: '#ffffff' },
  { fill: '#edc948', ink: '#1a1a1a' },
  { fill: '#b07aa1', ink: '#ffffff' },
  { fill: '#ff9da7', ink: '#1a1a1a' },
  { fill: '#9c755f', ink: '#ffffff' },
  { fill: '#bab0ac', ink: '#1a1a1a' },
  { fill: '#17324f', ink: '#ffffff' },
  { fill: '#b35806', ink: '#ffffff' },
  { fill: '#8c2d2f', ink: '#ffffff' },
  { fill: '#2a7f62', ink: '#ffffff' },
  { fill: '#b3d66b', ink: '#1a1a1a' },
  { fill: '#6a3d9a', ink: '#ffffff' },
  { fill: '#17becf', ink: '#1a1a1a' },
  { fill: '#7f7f7f', ink: '#ffffff' },
  { fill: '#e377c2', ink: '#1a1a1a' },
  { fill: '#bcbd22', ink: '#1a1a1a' },
];
const TEXT_COLOR = '#333333';
const TITLE_FONT_SIZE = 16;
const LABEL_FONT_SIZE = 11;
const VALUE_FONT_SIZE = 11;
const LEGEND_FONT_SIZE = 12;
/** A legend entry's symbol, its gap to the label and the gap to the next entry. */
const LEGEND_SYMBOL_PX = 40;
/** Roboto's average advance is about half an em; a little extra keeps estimates safe. */
const CHAR_WIDTH_EM = 0.6;
/** Room the axes, padding and a legend take from the chart, for readability estimates. */
const AXIS_ALLOWANCE_PX = 110;
const LEGEND_ALLOWANCE_PX = 40;
/** A horizontal bar needs this much height for its value label to stay legible. */
const MIN_LABEL_ROW_PX = 13;
/** More value labels than this turns a chart into a wall of numbers. */
const MAX_VALUE_LABELS = 40;
/** Category labels beyond this width are cut with an ellipsis. */
const CATEGORY_LABEL_LIMIT_PX = 180;
const ANGLED_LABEL_DEGREES = -40;
/** Pie slices smaller than this share of the whole carry no value label. */
const MIN_LABELLED_SLICE_SHARE = 0.03;
/** Categories longer than this make stacked and grouped bars horizontal, as Pew draws them. */
const LONG_LABEL_CHARS = 16;
const MAX_SCATTER_LABELS = 20;
const PX_PER_TICK = 55;
const YEAR_PATTERN = /^(1[89]|20)\d\d$/;

/** Values print with at most this many decimals (OWID tables carry 13). */
const MAX_SHOWN_DECIMALS = 2;
const NUMBER_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: MAX_SHOWN_DECIMALS });
const SMALL_NUMBER_FORMAT = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/** The table in long format: one datum per numeric cell, in row order then series order. */
export function chartData(table: DataTable): ChartDatum[] {
  return table.rows.flatMap((row, rowIndex) =>
    table.series.flatMap((series, seriesIndex) => {
      const value = row.values[seriesIndex];
      if (value === null || value === undefined) return [];
      const text = displayValue(row.raw[seriesIndex], value);
      return [{ label: row.label, series, value, text, row: rowIndex, seriesIndex }];
    }),
  );
}

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

interface ChartContext {
  table: DataTable;
  data: ChartDatum[];
  /** Row labels without repeats, in row order: the category axis's domain. */
  labels: string[];
  width: number;
  height: number;
  title: string[] | undefined;
  plotWidth: number;
  plotHeight: number;
}

function chartContext(table: DataTable, options: ChartSpecOptions): ChartContext {
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
  };
}

function naturalOrient(ctx: ChartContext): Orient {
  return longestLength(ctx.labels) > LONG_LABEL_CHARS ? 'horizontal' : 'vertical';
}

function barSpec(ctx: ChartContext, orient: Orient, mode: BarMode): TopLevelSpec {
  const { table } = ctx;
  const band = orient === 'vertical' ? 'x' : 'y';
  const measure = orient === 'vertical' ? 'y' : 'x';
  const encoding: Encoding = {
    [band]: categoryAxis(ctx, orient === 'vertical' ? ctx.plotWidth : ctx.plotHeight, orient === 'vertical'),
    [measure]: {
      field: 'value',
      type: 'quantitative',
      stack: mode === 'stacked' ? 'zero' : null,
      axis: valueAxis(table, orient === 'vertical' ? ctx.plotHeight : ctx.plotWidth),
    },
  };
  if (mode === 'grouped') encoding[orient === 'vertical' ? 'xOffset' : 'yOffset'] = { field: 'series', type: 'nominal', scale: { domain: table.series } };
  if (mode === 'stacked') encoding.order = { field: 'seriesIndex', type: 'quantitative' };
  const bars: Layer = { mark: { type: 'bar' }, encoding: { color: seriesColor(ctx) } };
  const labels = barLabels(ctx, orient, mode);
  return topLevel(ctx, { encoding, layer: labels ? [bars, labels] : [bars] });
}

function barLabels(ctx: ChartContext, orient: Orient, mode: BarMode): Layer | undefined {
  const marks = ctx.data.length;
  if (marks === 0 || marks > MAX_VALUE_LABELS) return undefined;
  const textWidth = longestLength(ctx.data.map((d) => d.text)) * VALUE_FONT_SIZE * CHAR_WIDTH_EM;
  const bandCount = Math.max(1, ctx.labels.length);
  const barsPerBand = mode === 'grouped' ? ctx.table.series.length : 1;
  if (mode === 'stacked') return stackedLabels(ctx, orient, textWidth);
  if (orient === 'vertical' && ctx.plotWidth / (bandCount * barsPerBand) < textWidth + 2) return undefined;
  if (orient === 'horizontal' && ctx.plotHeight / (bandCount * barsPerBand) < MIN_LABEL_ROW_PX) return undefined;
  const mark: Layer['mark'] =
    orient === 'vertical'
      ? { type: 'text', fontSize: VALUE_FONT_SIZE, color: TEXT_COLOR, baseline: { expr: "datum.value < 0 ? 'top' : 'bottom'" }, dy: { expr: 'datum.value < 0 ? 3 : -3' } }
      : { type: 'text', fontSize: VALUE_FONT_SIZE, color: TEXT_COLOR, align: { expr: "datum.value < 0 ? 'right' : 'left'" }, dx: { expr: 'datum.value < 0 ? -3 : 3' } };
  return { mark, encoding: { text: { field: 'text', type: 'nominal' } } };
}

/** Labels inside stacked segments, shown only on segments big enough to hold them. */
function stackedLabels(ctx: ChartContext, orient: Orient, textWidth: number): Layer {
  const totals = new Map<number, number>();
  for (const d of ctx.data) totals.set(d.row, (totals.get(d.row) ?? 0) + Math.abs(d.value));
  const maxTotal = Math.max(1e-9, ...totals.values());
  const bandPx = (orient === 'vertical' ? ctx.plotWidth : ctx.plotHeight) / Math.max(1, ctx.labels.length);
  const lengthPx = orient === 'vertical' ? ctx.plotHeight : ctx.plotWidth;
  const fits = (d: ChartDatum): boolean => {
    const segmentPx = (Math.abs(d.value) / maxTotal) * lengthPx;
    return orient === 'vertical'
      ? segmentPx >= VALUE_FONT_SIZE + 4 && bandPx * 0.8 >= textWidth
      : segmentPx >= d.text.length * VALUE_FONT_SIZE * CHAR_WIDTH_EM + 6 && bandPx * 0.8 >= VALUE_FONT_SIZE + 2;
  };
  const hidden = ctx.data.filter((d) => !fits(d)).map((d) => `${d.row}:${d.seriesIndex}`);
  // The ink is looked up in the mark, not through a colour scale, which would merge with the bars' scale.
  const ink = { expr: `${JSON.stringify(PALETTE.map((p) => p.ink))}[datum.seriesIndex % ${PALETTE.length}]` };
  const mark: Layer['mark'] =
    orient === 'vertical'
      ? { type: 'text', fontSize: VALUE_FONT_SIZE, color: ink, baseline: 'top', dy: 4 }
      : { type: 'text', fontSize: VALUE_FONT_SIZE, color: ink, align: 'right', dx: -4 };
  const test = `indexof(${JSON.stringify(hidden)}, datum.row + ':' + datum.seriesIndex) >= 0`;
  return { mark, encoding: { text: { condition: { test, value: '' }, field: 'text', type: 'nominal' } } };
}

function seriesSpec(ctx: ChartContext, kind: 'line' | 'area' | 'point'): TopLevelSpec {
  const { table } = ctx;
  const encoding: Encoding = {
    x: categoryAxis(ctx, ctx.plotWidth, true),
    y: { field: 'value', type: 'quantitative', stack: null, axis: valueAxis(table, ctx.plotHeight), scale: { zero: kind !== 'line' } },
    // A line's points join in row order; for an area, `order` would split the path instead.
    ...(kind === 'area' ? {} : { order: { field: 'row', type: 'quantitative' } }),
  };
  const mark: Layer['mark'] =
    kind === 'line'
      ? { type: 'line', point: { size: 36 }, strokeWidth: 2.5 }
      : kind === 'area'
        ? { type: 'area', opacity: table.series.length > 1 ? 0.35 : 0.6, line: { strokeWidth: 2 }, point: { size: 24 } }
        : { type: 'point', filled: true, size: 70, opacity: 1 };
  const layer: Layer[] = [{ mark, encoding: { color: seriesColor(ctx) } }];
  const showValues = table.series.length === 1 && ctx.data.length > 0 && ctx.data.length <= MAX_VALUE_LABELS;
  const textWidth = longestLength(ctx.data.map((d) => d.text)) * VALUE_FONT_SIZE * CHAR_WIDTH_EM;
  if (showValues && ctx.plotWidth / Math.max(1, ctx.labels.length) >= textWidth + 2) {
    // Values at a dip sit under their point, elsewhere above, so the line does not cross them.
    const below = `indexof(${JSON.stringify(dips(ctx.data))}, datum.row) >= 0`;
    const label = { type: 'text', fontSize: VALUE_FONT_SIZE, baseline: { expr: `${below} ? 'top' : 'bottom'` }, dy: { expr: `${below} ? 7 : -7` } } as const;
    const text = { text: { field: 'text', type: 'nominal' } } as const;
    // A white outline drawn first keeps the value legible where the line runs through it.
    layer.push({ mark: { ...label, stroke: 'white', strokeWidth: 3, strokeJoin: 'round' }, encoding: text });
    layer.push({ mark: { ...label, color: TEXT_COLOR }, encoding: text });
  }
  return topLevel(ctx, { encoding, layer });
}

/** Rows of the inner points lower than both neighbours in a single series. */
function dips(data: ChartDatum[]): number[] {
  return data
    .filter((d, i) => {
      const before = data[i - 1];
      const after = data[i + 1];
      return before !== undefined && after !== undefined && d.value < before.value && d.value < after.value;
    })
    .map((d) => d.row);
}

function pieSpec(ctx: ChartContext): TopLevelSpec {
  const { table } = ctx;
  const data = ctx.data.filter((d) => d.seriesIndex === 0 && d.value > 0);
  const total = data.reduce((sum, d) => sum + d.value, 0);
  const labels = [...new Set(data.map((d) => d.label))];
  const radius = `min(width, height) / 2 - ${VALUE_FONT_SIZE + 8}`;
  const hidden = data.filter((d) => d.value / total < MIN_LABELLED_SLICE_SHARE).map((d) => d.row);
  const encoding: Encoding = {
    theta: { field: 'value', type: 'quantitative', stack: true },
    order: { field: 'row', type: 'quantitative' },
  };
  const slices: Layer = {
    mark: { type: 'arc', outerRadius: { expr: radius }, stroke: 'white', strokeWidth: 1 },
    encoding: {
      color: {
        field: 'label',
        type: 'nominal',
        scale: { domain: labels, range: PALETTE.map((p) => p.fill) },
        legend: { title: (labels.length > 0 && table.label_header.trim()) || null, orient: 'right', labelLimit: CATEGORY_LABEL_LIMIT_PX },
      },
    },
  };
  const values: Layer = {
    mark: { type: 'text', fontSize: VALUE_FONT_SIZE, color: TEXT_COLOR, radius: { expr: `${radius} + ${VALUE_FONT_SIZE}` } },
    encoding: { text: { condition: { test: `indexof(${JSON.stringify(hidden)}, datum.row) >= 0`, value: '' }, field: 'text', type: 'nominal' } },
  };
  const layer = data.length <= MAX_VALUE_LABELS ? [slices, values] : [slices];
  return topLevel(ctx, { encoding, layer }, data);
}

function scatterSpec(ctx: ChartContext): TopLevelSpec {
  const { table } = ctx;
  const [xName = '', yName = ''] = table.series;
  const points = table.rows.flatMap((row, index) => {
    const x = row.values[0];
    const y = row.values[1];
    return x === null || x === undefined || y === null || y === undefined ? [] : [{ label: row.label, x, y, row: index }];
  });
  const layer: Layer[] = [{ mark: { type: 'point', filled: true, size: 70, color: PALETTE[0]?.fill, opacity: 1 } }];
  if (points.length <= MAX_SCATTER_LABELS) {
    layer.push({ mark: { type: 'text', fontSize: VALUE_FONT_SIZE, color: TEXT_COLOR, align: 'left', dx: 7, limit: 160 }, encoding: { text: { field: 'label', type: 'nominal' } } });
  }
  const encoding: Encoding = {
    x: { field: 'x', type: 'quantitative', scale: { zero: false, nice: true }, axis: { title: xName, tickCount: tickCountFor(ctx.plotWidth) } },
    y: { field: 'y', type: 'quantitative', scale: { zero: false, nice: true }, axis: { title: yName, tickCount: tickCountFor(ctx.plotHeight) } },
  };
  return topLevel(ctx, { encoding, layer }, points);
}

/** The category (row label) channel: row order kept by an explicit domain. */
function categoryAxis(ctx: ChartContext, axisPx: number, horizontalAxis: boolean): Encoding['x'] {
  return {
    field: 'label',
    type: 'nominal',
    scale: { domain: ctx.labels, ...(horizontalAxis ? {} : { paddingInner: 0.2 }) },
    axis: categoryAxisProps(ctx, axisPx, horizontalAxis),
  };
}

function categoryAxisProps(ctx: ChartContext, axisPx: number, horizontalAxis: boolean) {
  const title = ctx.table.label_header.trim() || null;
  if (!horizontalAxis) return { title, labelLimit: CATEGORY_LABEL_LIMIT_PX };
  const slotPx = axisPx / Math.max(1, ctx.labels.length);
  const labelPx = longestLength(ctx.labels) * LABEL_FONT_SIZE * CHAR_WIDTH_EM;
  return labelPx <= slotPx - 4
    ? { title, labelAngle: 0, labelLimit: CATEGORY_LABEL_LIMIT_PX }
    : {
        title,
        labelAngle: ANGLED_LABEL_DEGREES,
        labelAlign: 'right' as const,
        labelBaseline: 'top' as const,
        labelLimit: CATEGORY_LABEL_LIMIT_PX - 40,
        // Even angled, labels closer than a line height collide: show every other one.
        labelOverlap: slotPx < LABEL_FONT_SIZE + 2 ? ('parity' as const) : false,
      };
}

function seriesColor(ctx: ChartContext): Encoding['color'] {
  const { series } = ctx.table;
  if (series.length === 1) return { value: PALETTE[0]?.fill ?? 'steelblue' };
  return {
    field: 'series',
    type: 'nominal',
    scale: { domain: series, range: series.map((_, i) => paletteEntry(i).fill) },
    legend: { title: null, orient: 'bottom', direction: 'horizontal', columns: legendColumns(series, ctx.width - 40), labelLimit: CATEGORY_LABEL_LIMIT_PX },
  };
}

function topLevel(ctx: ChartContext, body: Pick<Extract<TopLevelSpec, { layer: unknown }>, 'encoding' | 'layer'>, values: object[] = ctx.data): TopLevelSpec {
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

const CHART_CONFIG: Config = {
  font: CHART_FONT,
  background: 'white',
  view: { stroke: null },
  title: { color: '#1a1a1a', font: CHART_FONT },
  axis: {
    labelFont: CHART_FONT,
    titleFont: CHART_FONT,
    labelFontSize: LABEL_FONT_SIZE,
    titleFontSize: 12,
    labelColor: TEXT_COLOR,
    titleColor: TEXT_COLOR,
    titleFontWeight: 'bold',
    gridColor: '#e6e6e6',
    domainColor: '#888888',
    tickColor: '#888888',
  },
  axisBand: { grid: false, ticks: false },
  legend: { labelFont: CHART_FONT, titleFont: CHART_FONT, labelFontSize: LEGEND_FONT_SIZE, labelColor: TEXT_COLOR, symbolType: 'circle', symbolSize: 110 },
  text: { font: CHART_FONT },
};

/**
 * The most legend columns that fit `widthPx`. Vega sizes each column to its widest entry
 * (entry i sits in column i mod columns).
 */
function legendColumns(series: string[], widthPx: number): number {
  const entryPx = series.map((name) => Math.min(name.length * LEGEND_FONT_SIZE * CHAR_WIDTH_EM, CATEGORY_LABEL_LIMIT_PX) + LEGEND_SYMBOL_PX);
  for (let rows = 1; rows < series.length; rows += 1) {
    // As few rows as fit, with entries spread evenly over them.
    const columns = Math.ceil(series.length / rows);
    const widths = Array.from({ length: columns }, (_, column) => Math.max(...entryPx.filter((_, i) => i % columns === column)));
    if (widths.reduce((sum, w) => sum + w, 0) <= widthPx) return columns;
  }
  return 1;
}

function valueAxis(table: DataTable, axisPx: number) {
  const title = table.series.length === 1 ? table.series[0]?.trim() || 'Value' : 'Value';
  const tickCount = tickCountFor(axisPx);
  return isPercentTable(table) ? { title, tickCount, labelExpr: "datum.label + '%'" } : { title, tickCount };
}

/** Vega's default of a tick per 40 px crowds the axis; ChartQA's charts space them wider. */
function tickCountFor(axisPx: number): number {
  return Math.max(2, Math.round(axisPx / PX_PER_TICK));
}

/** OECD and OWID tables put years across the columns; a line over time needs them as rows. */
function hasTimeAcrossSeries(table: DataTable): boolean {
  const isYear = (text: string): boolean => YEAR_PATTERN.test(text.trim());
  return table.series.length > 1 && table.series.every(isYear) && !table.rows.every((row) => isYear(row.label));
}

/** Swaps rows and series: each series becomes a row and each row a series. */
export function transposeTable(table: DataTable): DataTable {
  return {
    label_header: '',
    series: table.rows.map((row) => row.label),
    rows: table.series.map((label, s) => ({
      label,
      values: table.rows.map((row) => row.values[s] ?? null),
      raw: table.rows.map((row) => row.raw[s] ?? ''),
    })),
  };
}

/** The cell's own text while it still says `value` briefly; else the rounded number, keeping `%` and currency. */
function displayValue(raw: string | undefined, value: number): string {
  const cleaned = (raw ?? '').trim().replace(/\*+$/, '').trim();
  const decimals = /\.(\d+)/.exec(cleaned)?.[1]?.length ?? 0;
  if (parseCellValue(cleaned) === value && decimals <= MAX_SHOWN_DECIMALS) return cleaned;
  const format = Math.abs(value) < 1 ? SMALL_NUMBER_FORMAT : NUMBER_FORMAT;
  const currency = /^[$€£¥]/.exec(cleaned)?.[0] ?? '';
  return `${value < 0 ? '-' : ''}${currency}${format.format(Math.abs(value))}${cleaned.endsWith('%') ? '%' : ''}`;
}

/** Whether every cell with a value is written as a percentage (`32.7%`). */
function isPercentTable(table: DataTable): boolean {
  const cells = table.rows.flatMap((row) => row.raw.filter((_, i) => row.values[i] !== null));
  return cells.length > 0 && cells.every((raw) => raw.trim().replace(/\*+$/, '').endsWith('%'));
}

function paletteEntry(index: number): { fill: string; ink: string } {
  return PALETTE[index % PALETTE.length] ?? { fill: 'steelblue', ink: '#ffffff' };
}

function longestLength(texts: string[]): number {
  return texts.reduce((max, text) => Math.max(max, text.length), 0);
}

/** Splits text into lines of at most `maxChars` characters at spaces (a long word stays whole). */
function wrapText(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > maxChars) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
