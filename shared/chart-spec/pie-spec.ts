import type { TopLevelSpec } from 'vega-lite';
import { topLevel, type ChartContext, type Encoding, type Layer } from './chart-context';
import { CATEGORY_LABEL_LIMIT_PX, MAX_VALUE_LABELS, paletteEntry, TEXT_COLOR, VALUE_FONT_SIZE } from './chart-style';

/** Pie charts: the first series' positive values as slices, labelled outside the rim. */

/** Pie slices smaller than this share of the whole carry no value label. */
const MIN_LABELLED_SLICE_SHARE = 0.03;

export function pieSpec(ctx: ChartContext): TopLevelSpec {
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
        // Slices the annotation colours keep their colour; the others take the palette's in turn.
        scale: { domain: labels, range: labels.map((label, i) => ctx.style?.row_colours[label] ?? paletteEntry(i).fill) },
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
