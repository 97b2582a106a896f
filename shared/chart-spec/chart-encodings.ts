import type { DataTable } from '../table/model';
import type { ChartContext, Encoding } from './chart-context';
import { isPercentTable } from './chart-data';
import { CHAR_WIDTH_EM, LABEL_FONT_SIZE, LEGEND_FONT_SIZE, LEGEND_SYMBOL_PX, longestLength, paletteEntry } from './chart-style';
import type { AxisDomain } from './value-domain';

/** Channels the chart families share: the category and value axes, and series colours with their legend. */

const ANGLED_LABEL_DEGREES = -40;
/** Angled labels run into the plot's corner sooner: they are cut this much shorter. */
const ANGLED_LIMIT_CUT_PX = 40;
/** Fills lighter than this carry dark text (an approximation of WCAG contrast, enough for value labels). */
const LIGHT_FILL_LUMINANCE = 0.5;
const PX_PER_TICK = 55;

/** The category (row label) channel: row order kept by an explicit domain. */
export function categoryAxis(ctx: ChartContext, axisPx: number, horizontalAxis: boolean): Encoding['x'] {
  return {
    field: 'label',
    type: 'nominal',
    scale: { domain: ctx.labels, ...(horizontalAxis ? {} : { paddingInner: 0.2 }) },
    axis: categoryAxisProps(ctx, axisPx, horizontalAxis),
  };
}

function categoryAxisProps(ctx: ChartContext, axisPx: number, horizontalAxis: boolean) {
  const title = ctx.table.label_header.trim() || null;
  if (!horizontalAxis) return { title, labelLimit: ctx.labelLimit };
  const slotPx = axisPx / Math.max(1, ctx.labels.length);
  const labelPx = longestLength(ctx.labels) * LABEL_FONT_SIZE * CHAR_WIDTH_EM;
  return labelPx <= slotPx - 4
    ? { title, labelAngle: 0, labelLimit: ctx.labelLimit }
    : {
        title,
        labelAngle: ANGLED_LABEL_DEGREES,
        labelAlign: 'right' as const,
        labelBaseline: 'top' as const,
        labelLimit: ctx.labelLimit - ANGLED_LIMIT_CUT_PX,
        // Even angled, labels closer than a line height collide: show every other one.
        labelOverlap: slotPx < LABEL_FONT_SIZE + 2 ? ('parity' as const) : false,
      };
}

/**
 * Series colours: the annotation's where it gives them, else the palette's. `perRow`: bars of a
 * single series whose annotation colours them one by one take those colours (no legend: the
 * axis names them).
 */
export function seriesColor(ctx: ChartContext, perRow = false): Encoding['color'] {
  const { series } = ctx.table;
  if (series.length === 1) {
    const rows = ctx.style?.row_colours ?? {};
    if (perRow && ctx.labels.some((label) => rows[label] !== undefined)) {
      return { field: 'label', type: 'nominal', scale: { domain: ctx.labels, range: ctx.labels.map((label) => rows[label] ?? seriesFill(ctx, 0)) }, legend: null };
    }
    return { value: seriesFill(ctx, 0) };
  }
  return {
    field: 'series',
    type: 'nominal',
    scale: { domain: series, range: series.map((_, i) => seriesFill(ctx, i)) },
    legend: {
      title: null,
      orient: 'bottom',
      direction: 'horizontal',
      columns: legendColumns(series, ctx.width - 40, ctx.labelLimit),
      labelLimit: ctx.labelLimit,
      ...legendUnitTooltips(ctx),
    },
  };
}

/**
 * A legend entry's tooltip names its series with the unit the table keeps apart ("Germany
 * (cases)"), so the legend itself shows the names as the chart writes them and is not cut off
 * by units. Nothing when no series has a unit.
 */
function legendUnitTooltips(ctx: ChartContext): { encoding: { labels: { tooltip: { value: { expr: string } } }; symbols: { opacity: { value: number } } } } | Record<string, never> {
  const units = ctx.style?.series_units ?? {};
  if (!ctx.table.series.some((name) => units[name] !== undefined)) return {};
  const tips = Object.fromEntries(ctx.table.series.map((name) => [name, units[name] === undefined ? name : `${name} (${units[name]})`]));
  // The symbols' look is given with the labels' tooltip: layers of one chart (an area and its points) would otherwise each ask their own and conflict.
  return { encoding: { labels: { tooltip: { value: { expr: `${JSON.stringify(tips)}[datum.value]` } } }, symbols: { opacity: { value: 1 } } } };
}

/**
 * The fill of series `index`. A series named like a row of the annotation's models (years
 * across the columns, drawn transposed as a line per country) takes that row's colour.
 */
export function seriesFill(ctx: ChartContext, index: number): string {
  const name = ctx.table.series[index] ?? '';
  return ctx.style?.series_colours[name] ?? ctx.style?.row_colours[name] ?? paletteEntry(index).fill;
}

/** Text colour readable on series `index`'s fill. */
export function seriesInk(ctx: ChartContext, index: number): string {
  const fill = seriesFill(ctx, index);
  return fill === paletteEntry(index).fill ? paletteEntry(index).ink : inkOn(fill);
}

/** Dark text on light fills, white on dark ones (relative luminance of `#rrggbb`). */
export function inkOn(fill: string): string {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((at) => Number.parseInt(fill.slice(at, at + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > LIGHT_FILL_LUMINANCE ? '#1a1a1a' : '#ffffff';
}

/**
 * The most legend columns that fit `widthPx`. Vega sizes each column to its widest entry
 * (entry i sits in column i mod columns).
 */
function legendColumns(series: string[], widthPx: number, labelLimit: number): number {
  const entryPx = series.map((name) => Math.min(name.length * LEGEND_FONT_SIZE * CHAR_WIDTH_EM, labelLimit) + LEGEND_SYMBOL_PX);
  for (let rows = 1; rows < series.length; rows += 1) {
    // As few rows as fit, with entries spread evenly over them.
    const columns = Math.ceil(series.length / rows);
    const widths = Array.from({ length: columns }, (_, column) => Math.max(...entryPx.filter((_, i) => i % columns === column)));
    if (widths.reduce((sum, w) => sum + w, 0) <= widthPx) return columns;
  }
  return 1;
}

/** `units`: the series' units by name (the drawing style's, so an edited copy of the table titles its axis alike). */
export function valueAxis(table: DataTable, axisPx: number, units: Readonly<Record<string, string>> = {}) {
  // A single series' unit, kept apart from its name in the table, titles the axis beside it.
  const unit = table.series.length === 1 ? units[table.series[0] ?? ''] : undefined;
  const name = table.series.length === 1 ? table.series[0]?.trim() || 'Value' : 'Value';
  const title = unit ? `${name} (${unit})` : name;
  const tickCount = tickCountFor(axisPx);
  return isPercentTable(table) ? { title, tickCount, labelExpr: "datum.label + '%'" } : { title, tickCount };
}

/**
 * The value channel's scale over a domain shared with another drawing, nice so that both get
 * the same ends and ticks. `roomPx` is kept free past each end that is not the zero baseline,
 * for what is drawn beyond a mark's end (its value label, its outline): kept inside the plot,
 * it cannot make one drawing's plot smaller than the other's, as Vega fits plot and marks
 * together in the chart's size. Nothing without a domain: Vega fits the axis to the drawing.
 */
export function sharedScale(domain: AxisDomain | undefined, axisPx: number, roomPx: number): { domain: number[]; nice: true } | Record<string, never> {
  if (!domain) return {};
  const [low, high] = domain;
  const lowRoom = low === 0 ? 0 : roomPx;
  const highRoom = high === 0 ? 0 : roomPx;
  // A drawing too small for its labels keeps half its axis for the values.
  const perPx = (high - low) / Math.max(axisPx / 2, axisPx - lowRoom - highRoom);
  return { domain: [low - lowRoom * perPx, high + highRoom * perPx], nice: true };
}

/** Vega's default of a tick per 40 px crowds the axis; ChartQA's charts space them wider. */
export function tickCountFor(axisPx: number): number {
  return Math.max(2, Math.round(axisPx / PX_PER_TICK));
}
