import type { TopLevelSpec } from 'vega-lite';
import { topLevel, type ChartContext, type Encoding, type Layer } from './chart-context';
import { sharedScale, tickCountFor } from './chart-encodings';
import { PALETTE, TEXT_COLOR, VALUE_FONT_SIZE } from './chart-style';
import { RING_REACH_PX, ringLayer } from './highlight';

/** Scatter plots of two measures: the first series across, the second up, each point named by its row. */

const MAX_SCATTER_LABELS = 20;

export function scatterSpec(ctx: ChartContext): TopLevelSpec {
  const { table } = ctx;
  const [xName = '', yName = ''] = table.series;
  // A point moves when either of its measures does.
  const editedRows = new Set(ctx.data.filter((d) => d.edited && d.seriesIndex < 2).map((d) => d.row));
  const points = table.rows.flatMap((row, index) => {
    const x = row.values[0];
    const y = row.values[1];
    if (x === null || x === undefined || y === null || y === undefined) return [];
    return [{ label: row.label, x, y, row: index, ...(editedRows.has(index) ? { edited: true } : {}) }];
  });
  const layer: Layer[] = [{ mark: { type: 'point', filled: true, size: 70, color: PALETTE[0]?.fill, opacity: 1 } }];
  if (editedRows.size > 0) layer.push(ringLayer());
  if (points.length <= MAX_SCATTER_LABELS) {
    // On axes shared with another drawing, a name running past the plot is cut there rather than narrowing this plot alone.
    const clip = ctx.valueDomain ? { clip: true } : {};
    layer.push({ mark: { type: 'text', fontSize: VALUE_FONT_SIZE, color: TEXT_COLOR, align: 'left', dx: 7, limit: 160, ...clip }, encoding: { text: { field: 'label', type: 'nominal' } } });
  }
  const encoding: Encoding = {
    x: { field: 'x', type: 'quantitative', scale: { zero: false, nice: true, ...sharedScale(ctx.valueDomain?.across, ctx.plotWidth, RING_REACH_PX) }, axis: { title: xName, tickCount: tickCountFor(ctx.plotWidth) } },
    y: { field: 'y', type: 'quantitative', scale: { zero: false, nice: true, ...sharedScale(ctx.valueDomain?.value, ctx.plotHeight, RING_REACH_PX) }, axis: { title: yName, tickCount: tickCountFor(ctx.plotHeight) } },
  };
  return topLevel(ctx, { encoding, layer }, points);
}
