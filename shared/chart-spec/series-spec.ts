import type { TopLevelSpec } from 'vega-lite';
import { topLevel, type ChartContext, type Encoding, type Layer } from './chart-context';
import type { ChartDatum } from './chart-data';
import { categoryAxis, seriesColor, sharedScale, valueAxis } from './chart-encodings';
import { CHAR_WIDTH_EM, longestLength, MAX_VALUE_LABELS, TEXT_COLOR, VALUE_FONT_SIZE } from './chart-style';
import { RING_REACH_PX, ringLayer } from './highlight';
import type { Stacking } from '../table/model';

/** Between a point and its value label (above it, or under it at a dip). */
const LABEL_OFFSET_PX = 7;

/** Series over the category axis: lines, areas, and points (a single-series scatter). */

/** `stacking` (areas only): the series' areas stacked on each other, or to 100 % at every point, as the original draws them. */
export function seriesSpec(ctx: ChartContext, kind: 'line' | 'area' | 'point', stacking: Stacking = 'none'): TopLevelSpec {
  const { table } = ctx;
  const value: Encoding['y'] =
    stacking === 'none'
      ? { field: 'value', type: 'quantitative', stack: null, axis: valueAxis(table, ctx.plotHeight, ctx.style?.series_units), scale: { zero: kind !== 'line', ...sharedScale(ctx.valueDomain?.value, ctx.plotHeight, Math.max(RING_REACH_PX, LABEL_OFFSET_PX + VALUE_FONT_SIZE)) } }
      : stacking === 'stacked'
        ? { field: 'value', type: 'quantitative', stack: 'zero', axis: valueAxis(table, ctx.plotHeight, ctx.style?.series_units) }
        : { field: 'value', type: 'quantitative', stack: 'normalize', axis: { title: null, tickCount: valueAxis(table, ctx.plotHeight, ctx.style?.series_units).tickCount, format: '.0%' } };
  const encoding: Encoding = {
    x: categoryAxis(ctx, ctx.plotWidth, true),
    y: value,
    // A line's points join in row order; for an area, `order` would split the path instead.
    ...(kind === 'area' ? {} : { order: { field: 'row', type: 'quantitative' } }),
  };
  const mark: Layer['mark'] =
    kind === 'line'
      ? { type: 'line', point: { size: 36 }, strokeWidth: 2.5 }
      : kind === 'area'
        ? { type: 'area', opacity: table.series.length > 1 && stacking === 'none' ? 0.35 : 0.6, line: { strokeWidth: 2 }, point: { size: 24 } }
        : { type: 'point', filled: true, size: 70, opacity: 1 };
  const layer: Layer[] = [{ mark, encoding: { color: seriesColor(ctx) } }];
  if (ctx.data.some((d) => d.edited)) layer.push(ringLayer());
  const showValues = table.series.length === 1 && ctx.data.length > 0 && ctx.data.length <= MAX_VALUE_LABELS;
  const textWidth = longestLength(ctx.data.map((d) => d.text)) * VALUE_FONT_SIZE * CHAR_WIDTH_EM;
  if (showValues && ctx.plotWidth / Math.max(1, ctx.labels.length) >= textWidth + 2) {
    // Values at a dip sit under their point, elsewhere above, so the line does not cross them.
    const below = `indexof(${JSON.stringify(dips(ctx.data))}, datum.row) >= 0`;
    const label = { type: 'text', fontSize: VALUE_FONT_SIZE, baseline: { expr: `${below} ? 'top' : 'bottom'` }, dy: { expr: `${below} ? ${LABEL_OFFSET_PX} : ${-LABEL_OFFSET_PX}` } } as const;
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
