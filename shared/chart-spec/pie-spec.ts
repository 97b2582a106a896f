import type { TopLevelSpec } from 'vega-lite';
import { CHART_PADDING_PX, topLevel, type ChartContext, type Encoding, type Layer } from './chart-context';
import { CHAR_WIDTH_EM, LEGEND_FONT_SIZE, LEGEND_SYMBOL_PX, longestLength, MAX_VALUE_LABELS, paletteEntry, TEXT_COLOR, VALUE_FONT_SIZE } from './chart-style';
import { outlineLayers } from './highlight';

/** Pie charts: the first series' positive values as slices, labelled outside the rim. */

/** Pie slices smaller than this share of the whole carry no value label. */
const MIN_LABELLED_SLICE_SHARE = 0.03;
/** Nor do slices whose rim is shorter than a label's height plus this gap: their labels would overlap. */
const LABEL_GAP_PX = 3;
/** The ring the value labels take round the pie, inside the view. */
const LABEL_RING_PX = VALUE_FONT_SIZE + 8;

export function pieSpec(ctx: ChartContext): TopLevelSpec {
  const { table } = ctx;
  const data = ctx.data.filter((d) => d.seriesIndex === 0 && d.value > 0);
  const total = data.reduce((sum, d) => sum + d.value, 0);
  const labels = [...new Set(data.map((d) => d.label))];
  const radius = `min(width, height) / 2 - ${LABEL_RING_PX}`;
  // A small drawing's rim is short: its labels need bigger slices to stay apart.
  const rimPx = 2 * Math.PI * estimatedRadius(ctx, labels);
  const minShare = Math.max(MIN_LABELLED_SLICE_SHARE, (VALUE_FONT_SIZE + LABEL_GAP_PX) / rimPx);
  const hidden = data.filter((d) => d.value / total < minShare).map((d) => d.row);
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
        // Slices the annotation colours keep their colour; the others take the palette's in turn.
        scale: { domain: labels, range: labels.map((label, i) => ctx.style?.row_colours[label] ?? paletteEntry(i).fill) },
        legend: { title: (labels.length > 0 && table.label_header.trim()) || null, orient: 'right', labelLimit: ctx.labelLimit },
      },
    },
  };
  const values: Layer = {
    mark: { type: 'text', fontSize: VALUE_FONT_SIZE, color: TEXT_COLOR, radius: { expr: `${radius} + ${VALUE_FONT_SIZE}` } },
    encoding: { text: { condition: { test: `indexof(${JSON.stringify(hidden)}, datum.row) >= 0`, value: '' }, field: 'text', type: 'nominal' } },
  };
  const outlines = data.some((d) => d.edited) ? outlineLayers({ type: 'arc', outerRadius: { expr: radius } }) : [];
  const layer = [slices, ...outlines, ...(data.length <= MAX_VALUE_LABELS ? [values] : [])];
  return topLevel(ctx, { encoding, layer }, data);
}

/** The pie's radius as drawn, roughly: the chart less its padding, its title and the legend of `labels` beside it. */
function estimatedRadius(ctx: ChartContext, labels: string[]): number {
  const legendPx = Math.min(ctx.labelLimit, longestLength(labels) * LEGEND_FONT_SIZE * CHAR_WIDTH_EM) + LEGEND_SYMBOL_PX;
  const viewWidth = ctx.width - 2 * CHART_PADDING_PX - legendPx;
  const viewHeight = ctx.height - 2 * CHART_PADDING_PX - ctx.titleHeight;
  return Math.max(1, Math.min(viewWidth, viewHeight) / 2 - LABEL_RING_PX);
}
