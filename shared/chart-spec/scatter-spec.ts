import type { TopLevelSpec } from 'vega-lite';
import { topLevel, type ChartContext, type Encoding, type Layer } from './chart-context';
import { tickCountFor } from './chart-encodings';
import { PALETTE, TEXT_COLOR, VALUE_FONT_SIZE } from './chart-style';

/** Scatter plots of two measures: the first series across, the second up, each point named by its row. */

const MAX_SCATTER_LABELS = 20;

export function scatterSpec(ctx: ChartContext): TopLevelSpec {
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
