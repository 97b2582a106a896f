import type { TopLevelSpec } from 'vega-lite';
import { topLevel, type ChartContext, type Encoding, type Layer } from './chart-context';
import type { ChartDatum } from './chart-data';
import { categoryAxis, seriesColor, seriesInk, sharedScale, valueAxis } from './chart-encodings';
import { CHAR_WIDTH_EM, longestLength, MAX_VALUE_LABELS, TEXT_COLOR, VALUE_FONT_SIZE } from './chart-style';
import { OUTLINE_REACH_PX, outlineLayers } from './highlight';

/** Bar charts: vertical or horizontal; single, grouped or stacked; with value labels where they fit. */

type Orient = 'vertical' | 'horizontal';
/** `percent`: stacked, each bar drawn to 100 % (Vega-Lite's normalized stack). */
type BarMode = 'single' | 'grouped' | 'stacked' | 'percent';

/** Between a bar's end and its value label (the labels' dy and dx). */
const LABEL_OFFSET_PX = 3;

/** A horizontal bar needs this much height for its value label to stay legible. */
const MIN_LABEL_ROW_PX = 13;
/** Categories longer than this make stacked and grouped bars horizontal, as Pew draws them. */
const LONG_LABEL_CHARS = 16;

export function naturalOrient(ctx: ChartContext): Orient {
  return longestLength(ctx.labels) > LONG_LABEL_CHARS ? 'horizontal' : 'vertical';
}

export function barSpec(ctx: ChartContext, orient: Orient, mode: BarMode): TopLevelSpec {
  const { table } = ctx;
  const band = orient === 'vertical' ? 'x' : 'y';
  const measure = orient === 'vertical' ? 'y' : 'x';
  const axisPx = orient === 'vertical' ? ctx.plotHeight : ctx.plotWidth;
  const encoding: Encoding = {
    [band]: categoryAxis(ctx, orient === 'vertical' ? ctx.plotWidth : ctx.plotHeight, orient === 'vertical'),
    [measure]:
      mode === 'percent'
        ? // Every bar spans the axis whatever its segments add up to, as the original's do; a shared domain would not apply.
          { field: 'value', type: 'quantitative', stack: 'normalize', axis: { title: null, tickCount: valueAxis(table, axisPx, ctx.style?.series_units).tickCount, format: '.0%' } }
        : {
            field: 'value',
            type: 'quantitative',
            stack: mode === 'stacked' ? 'zero' : null,
            axis: valueAxis(table, axisPx, ctx.style?.series_units),
            ...(ctx.valueDomain ? { scale: sharedScale(ctx.valueDomain.value, axisPx, endRoom(ctx, orient, mode)) } : {}),
          },
  };
  const stacked = mode === 'stacked' || mode === 'percent';
  if (mode === 'grouped') encoding[orient === 'vertical' ? 'xOffset' : 'yOffset'] = { field: 'series', type: 'nominal', scale: { domain: table.series } };
  if (stacked) encoding.order = { field: 'seriesIndex', type: 'quantitative' };
  const bars: Layer = { mark: { type: 'bar' }, encoding: { color: seriesColor(ctx, mode === 'single') } };
  const outlines = ctx.data.some((d) => d.edited) ? outlineLayers({ type: 'bar' }) : [];
  const labels = barLabels(ctx, orient, stacked ? 'stacked' : mode);
  return topLevel(ctx, { encoding, layer: [bars, ...outlines, ...(labels ? [labels] : [])] });
}

/**
 * The room a shared value axis keeps past the bars' ends: a value label beyond the end, as long
 * as either table's longest across a horizontal bar; stacked bars' labels sit inside.
 */
function endRoom(ctx: ChartContext, orient: Orient, mode: Exclude<BarMode, 'percent'>): number {
  if (mode === 'stacked') return OUTLINE_REACH_PX;
  const labelPx = orient === 'vertical' ? VALUE_FONT_SIZE : (ctx.valueDomain?.labelChars ?? 0) * VALUE_FONT_SIZE * CHAR_WIDTH_EM;
  return LABEL_OFFSET_PX + labelPx + OUTLINE_REACH_PX;
}

function barLabels(ctx: ChartContext, orient: Orient, mode: Exclude<BarMode, 'percent'>): Layer | undefined {
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
      ? { type: 'text', fontSize: VALUE_FONT_SIZE, color: TEXT_COLOR, baseline: { expr: "datum.value < 0 ? 'top' : 'bottom'" }, dy: { expr: `datum.value < 0 ? ${LABEL_OFFSET_PX} : ${-LABEL_OFFSET_PX}` } }
      : { type: 'text', fontSize: VALUE_FONT_SIZE, color: TEXT_COLOR, align: { expr: "datum.value < 0 ? 'right' : 'left'" }, dx: { expr: `datum.value < 0 ? ${-LABEL_OFFSET_PX} : ${LABEL_OFFSET_PX}` } };
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
  const inks = ctx.table.series.map((_, i) => seriesInk(ctx, i));
  const ink = { expr: `${JSON.stringify(inks)}[datum.seriesIndex]` };
  const mark: Layer['mark'] =
    orient === 'vertical'
      ? { type: 'text', fontSize: VALUE_FONT_SIZE, color: ink, baseline: 'top', dy: 4 }
      : { type: 'text', fontSize: VALUE_FONT_SIZE, color: ink, align: 'right', dx: -4 };
  const test = `indexof(${JSON.stringify(hidden)}, datum.row + ':' + datum.seriesIndex) >= 0`;
  return { mark, encoding: { text: { condition: { test, value: '' }, field: 'text', type: 'nominal' } } };
}
