import type { TopLevelSpec } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { drawSpec } from '../../test/support/vega-scene';
import type { ChartType } from '../domain/chart-types';
import { tableFromCells } from '../table/model';
import { HIGHLIGHT_INK, transposeHighlight, type ChartHighlight } from './highlight';
import { buildChartSpec } from './vega-lite-spec';

/** Marks an edit changed are drawn outlined, in every family, at the place the mark is drawn. */

const SALES = tableFromCells(
  ['Year', 'Online', 'Stores'],
  [
    ['2018', '12', '30'],
    ['2019', '15', '28'],
    ['2020', '19', '25'],
  ],
);
const SHARES = tableFromCells(['Platform', 'Share'], [['Mobile', '55%'], ['Desktop', '40%'], ['Tablet', '5%']]);
/** OWID's way: years across the columns, a line per country once drawn. */
const OWID = tableFromCells(
  ['Entity', '1990', '2000', '2010'],
  [
    ['Albania', '84', '88', '94'],
    ['Benin', '86', '84', '88'],
  ],
);

/** What the outline layer draws a visible outline round: "row/series" of each datum. */
async function outlined(spec: TopLevelSpec): Promise<string[]> {
  const items = (await drawSpec(spec)).marks('edited_outline_marks');
  return items.filter((item) => (item.strokeWidth ?? 0) > 0 && item.stroke === HIGHLIGHT_INK).map((item) => `${String(item.datum?.label)}/${String(item.datum?.series ?? '')}`);
}

const doubledStores: ChartHighlight = { cells: [{ row: '2019', series: 'Stores' }], rows: [] };

describe('buildChartSpec with a highlight', () => {
  it.each<ChartType>(['grouped_bar', 'stacked_bar', 'vertical_bar', 'horizontal_bar', 'line', 'area'])('outlines exactly the changed cell of a %s chart', async (chartType) => {
    expect(await outlined(buildChartSpec(SALES, chartType, { highlight: doubledStores }))).toEqual(['2019/Stores']);
  });

  it('outlines every mark of an added row', async () => {
    expect((await outlined(buildChartSpec(SALES, 'grouped_bar', { highlight: { cells: [], rows: ['2020'] } }))).sort()).toEqual(['2020/Online', '2020/Stores']);
  });

  it('draws an outline on the stacked segment it belongs to, not where a stack of the outlines alone would put it', async () => {
    const drawn = await drawSpec(buildChartSpec(SALES, 'stacked_bar', { highlight: doubledStores }));
    const bar = drawn.marks('layer_0_marks').find((item) => item.datum?.label === '2019' && item.datum.series === 'Stores');
    const outline = drawn.marks('edited_outline_marks').find((item) => (item.strokeWidth ?? 0) > 0);
    expect(bar).toBeDefined();
    expect({ x: outline?.x, y: outline?.y, width: outline?.width, height: outline?.height }).toEqual({ x: bar?.x, y: bar?.y, width: bar?.width, height: bar?.height });
  });

  it('outlines a pie slice over its own angles', async () => {
    const drawn = await drawSpec(buildChartSpec(SHARES, 'pie', { highlight: { cells: [{ row: 'Desktop', series: 'Share' }], rows: [] } }));
    const slice = drawn.marks('layer_0_marks').find((item) => item.datum?.label === 'Desktop');
    const outline = drawn.marks('edited_outline_marks').filter((item) => (item.strokeWidth ?? 0) > 0);
    expect(outline.map((item) => item.datum?.label)).toEqual(['Desktop']);
    expect([outline[0]?.startAngle, outline[0]?.endAngle]).toEqual([slice?.startAngle, slice?.endAngle]);
  });

  it('rings a scatter point when either of its measures changed', async () => {
    const points = tableFromCells(['Country', 'GDP', 'Life expectancy'], [['Chad', '1.5', '54'], ['Peru', '6.6', '77'], ['Oman', '19', '78']]);
    const spec = buildChartSpec(points, 'scatter', { highlight: { cells: [{ row: 'Peru', series: 'Life expectancy' }], rows: [] } });
    expect((await drawSpec(spec)).marks('edited_outline_marks').map((item) => item.datum?.label)).toEqual(['Peru']);
  });

  it('turns with a table drawn transposed (years across the columns): the changed cell stays the changed point', async () => {
    const highlight: ChartHighlight = { cells: [{ row: 'Benin', series: '2000' }], rows: ['Chad'] };
    expect(transposeHighlight(highlight)).toEqual({ cells: [{ row: '2000', series: 'Benin' }], rows: [], series: ['Chad'] });
    // Drawn as a line per country: the point of Benin in 2000.
    expect(await outlined(buildChartSpec(OWID, 'line', { highlight }))).toEqual(['2000/Benin']);
    const withChad = tableFromCells(['Entity', '1990', '2000', '2010'], [...OWID.rows.map((row) => [row.label, ...row.raw]), ['Chad', '40', '45', '50']]);
    expect((await outlined(buildChartSpec(withChad, 'line', { highlight }))).sort()).toEqual(['1990/Chad', '2000/Benin', '2000/Chad', '2010/Chad']);
  });

  it('draws exactly as before without a highlight, or with one naming nothing drawn', () => {
    for (const chartType of ['grouped_bar', 'stacked_bar', 'line', 'pie', 'scatter'] as const) {
      const plain = JSON.stringify(buildChartSpec(SALES, chartType));
      expect(JSON.stringify(buildChartSpec(SALES, chartType, { highlight: null })), chartType).toBe(plain);
      expect(JSON.stringify(buildChartSpec(SALES, chartType, { highlight: { cells: [{ row: '1999', series: 'Online' }], rows: [] } })), chartType).toBe(plain);
    }
  });
});
