import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { drawSpec } from '../../test/support/vega-scene';
import { DataTableSchema, type DataTable } from '../table/model';
import { withTableReading } from './drawing-style';
import { buildChartSpec } from './vega-lite-spec';
import type { ChartType } from '../domain/chart-types';

/**
 * Redraws of extracted charts follow what the extraction read: the type, which way the bars
 * run, stacking to a total or to 100 %, and units named in the legend's tooltip, not its labels.
 */

const SHARES = DataTableSchema.parse({
  label_header: 'Year',
  series: ['Mercadona', 'Carrefour', 'Lidl'],
  units: ['%', '%', '%'],
  rows: [
    { label: '2019', values: [60, 30, 10], raw: ['60', '30', '10'] },
    { label: '2020', values: [50, 30, 20], raw: ['50', '30', '20'] },
    { label: '2021', values: [40, 40, 20], raw: ['40', '40', '20'] },
  ],
});

const reading = (drawn: DataTable['drawn']): DataTable => ({ ...SHARES, drawn });
const draw = (table: DataTable, type: ChartType) => buildChartSpec(table, type, { style: withTableReading(null, table) });
type Encoded = { encoding: Record<string, { field?: string; stack?: unknown; axis?: { format?: string; title?: unknown } | null }> };

describe('redraws of an extracted table', () => {
  it('draws an "other" chart read as horizontal bars sideways, and a horizontal bar chart so whatever it reads', () => {
    const sideways = draw(reading({ orientation: 'horizontal', stacking: 'none' }), 'other') as unknown as Encoded;
    expect(sideways.encoding.y?.field).toBe('label');
    expect(sideways.encoding.x?.field).toBe('value');
    const single = DataTableSchema.parse({ ...SHARES, series: ['Mercadona'], units: ['%'], rows: SHARES.rows.map((row) => ({ ...row, values: row.values.slice(0, 1), raw: row.raw.slice(0, 1) })) });
    const horizontal = draw(single, 'horizontal_bar') as unknown as Encoded;
    expect(horizontal.encoding.y?.field).toBe('label');
    // The single series' unit titles the value axis beside its name.
    expect(horizontal.encoding.x?.axis?.title).toBe('Mercadona (%)');
  });

  it('draws 100 % stacked bars each to the full axis, and plain stacked bars to their totals', async () => {
    const percent = draw(reading({ orientation: 'vertical', stacking: 'percent' }), 'stacked_bar');
    expect((percent as unknown as Encoded).encoding.y?.stack).toBe('normalize');
    const drawn = await drawSpec(percent);
    expect(drawn.domain('y')).toEqual([0, 1]);
    const bars = drawn.marks('layer_0_marks');
    expect(bars).toHaveLength(9);
    // Every bar's segments together span the plot's whole height.
    const [bottom = 0, top = 0] = drawn.range('y');
    for (const label of ['2019', '2020', '2021']) {
      const segments = bars.filter((bar) => bar.datum?.label === label);
      expect(segments.reduce((sum, bar) => sum + (bar.height ?? 0), 0)).toBeCloseTo(Math.abs(bottom - top), 3);
    }
    const stacked = draw(reading({ orientation: 'vertical', stacking: 'stacked' }), 'stacked_bar');
    expect((stacked as unknown as Encoded).encoding.y?.stack).toBe('zero');
  });

  it('stacks an area chart read as stacked (to 100 % when read so), and leaves a line chart unstacked', async () => {
    const stacked = draw(reading({ stacking: 'stacked' }), 'area');
    expect((stacked as unknown as Encoded).encoding.y?.stack).toBe('zero');
    expect((await drawSpec(stacked)).domain('y').at(-1)).toBeGreaterThanOrEqual(100);
    const percent = draw(reading({ stacking: 'percent' }), 'area') as unknown as Encoded;
    expect(percent.encoding.y?.stack).toBe('normalize');
    expect(percent.encoding.y?.axis?.format).toBe('.0%');
    const line = draw(reading({ stacking: 'stacked' }), 'line') as unknown as Encoded;
    expect(line.encoding.y?.stack).toBeNull();
    // Without a reading an area chart overlays its series, as before.
    expect((buildChartSpec(SHARES, 'area') as unknown as Encoded).encoding.y?.stack).toBeNull();
  });

  it('names series in the legend as the chart writes them, with the unit in the tooltip', async () => {
    const labels = await legendLabels(draw(reading(undefined), 'grouped_bar'));
    expect(labels).toEqual([
      { text: 'Mercadona', tooltip: 'Mercadona (%)' },
      { text: 'Carrefour', tooltip: 'Carrefour (%)' },
      { text: 'Lidl', tooltip: 'Lidl (%)' },
    ]);
    const plain = await legendLabels(buildChartSpec({ ...SHARES, units: undefined }, 'grouped_bar'));
    expect(plain.map((label) => label.tooltip)).toEqual([undefined, undefined, undefined]);
  });
});

type Scene = { role?: string; text?: string; tooltip?: string; items?: Scene[] };

/** The legend's label texts and their tooltips as Vega draws them. */
async function legendLabels(spec: TopLevelSpec): Promise<{ text: string | undefined; tooltip: string | undefined }[]> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  await view.runAsync();
  const found: { text: string | undefined; tooltip: string | undefined }[] = [];
  const walk = (node: Scene, role: string | undefined) => {
    const here = node.role ?? role;
    if (here === 'legend-label' && node.text !== undefined) found.push({ text: node.text, tooltip: node.tooltip });
    for (const child of node.items ?? []) walk(child, here);
  };
  // vega-typings do not type the scene graph.
  walk((view.scenegraph() as unknown as { root: Scene }).root, undefined);
  view.finalize();
  return found;
}
