import type { TopLevelSpec } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { drawSpec } from '../../test/support/vega-scene';
import { tableFromCells, type DataTable } from '../table/model';
import { comparedValueDomain } from './value-domain';
import { buildChartSpec } from './vega-lite-spec';

/** The original table and the edited one drawn on one value axis, so that an edit's size shows. */

const REVENUE = tableFromCells(
  ['Year', 'Michelin', 'Bridgestone'],
  [
    ['2019', '24', '30'],
    ['2020', '20', '27'],
  ],
);

/** Every value of `table` times `factor`, as a `scale` edit writes it. */
function scaled(table: DataTable, factor: number): DataTable {
  return { ...table, rows: table.rows.map((row) => ({ ...row, values: row.values.map((v) => (v === null ? null : v * factor)), raw: row.values.map((v) => (v === null ? 'nan' : String(v * factor))) })) };
}

async function drawnDomain(spec: TopLevelSpec, scale: 'x' | 'y'): Promise<number[]> {
  return (await drawSpec(spec)).domain(scale);
}

describe('comparedValueDomain', () => {
  it('covers the doubled values when the edit doubles every value', () => {
    const domain = comparedValueDomain([REVENUE, scaled(REVENUE, 2)], 'grouped_bar');
    expect(domain).toEqual({ value: [0, 60], labelChars: 2 });
    expect(comparedValueDomain([REVENUE], 'grouped_bar')).toEqual({ value: [0, 30], labelChars: 2 });
  });

  it('covers stacked bars to their stack totals, positive and negative stacks apart', () => {
    const balance = tableFromCells(
      ['Quarter', 'Sales', 'Returns', 'Fees'],
      [
        ['Q1', '40', '-10', '5'],
        ['Q2', '50', '-25', '-5'],
      ],
    );
    // Q2 stacks 50 up and -25 - 5 down; Q1 stacks 40 + 5 up.
    expect(comparedValueDomain([balance], 'stacked_bar')?.value).toEqual([-30, 50]);
    expect(comparedValueDomain([REVENUE, scaled(REVENUE, 2)], 'stacked_bar')?.value).toEqual([0, 108]);
  });

  it('starts bars and areas at zero, lines at their own values', () => {
    const high = tableFromCells(['Year', 'Index'], [['2019', '95'], ['2020', '105']]);
    expect(comparedValueDomain([high], 'vertical_bar')?.value).toEqual([0, 105]);
    expect(comparedValueDomain([high], 'area')?.value).toEqual([0, 105]);
    expect(comparedValueDomain([high, scaled(high, 0.5)], 'line')?.value).toEqual([47.5, 105]);
  });

  it('gives a scatter both its measures, and a pie nothing', () => {
    const points = tableFromCells(['Country', 'GDP', 'Life expectancy'], [['Chad', '1.5', '54'], ['Peru', '6.6', '77']]);
    expect(comparedValueDomain([points, scaled(points, 2)], 'scatter')).toMatchObject({ value: [54, 154], across: [1.5, 13.2] });
    expect(comparedValueDomain([REVENUE], 'pie')).toBeNull();
    expect(comparedValueDomain([tableFromCells(['Year', 'Index'], [['2019', 'nan']])], 'line')).toBeNull();
  });

  it('reads a table with years across the columns as the line chart draws it', () => {
    const owid = tableFromCells(['Entity', '1990', '2000'], [['Albania', '84', '88'], ['Benin', '86', '120']]);
    expect(comparedValueDomain([owid], 'line')?.value).toEqual([84, 120]);
  });
});

describe('buildChartSpec on a shared value domain', () => {
  it('draws the original and the doubled table to the same axis, so the doubled bars are twice as long', async () => {
    const doubled = scaled(REVENUE, 2);
    const valueDomain = comparedValueDomain([REVENUE, doubled], 'grouped_bar');
    const original = await drawnDomain(buildChartSpec(REVENUE, 'grouped_bar', { valueDomain }), 'y');
    const edited = await drawnDomain(buildChartSpec(doubled, 'grouped_bar', { valueDomain }), 'y');
    expect(original).toEqual(edited);
    expect(original[1]).toBeGreaterThanOrEqual(60);
    // Alone, each drawing fits its axis to its own values: doubling looks like nothing.
    expect(await drawnDomain(buildChartSpec(REVENUE, 'grouped_bar'), 'y')).not.toEqual(await drawnDomain(buildChartSpec(doubled, 'grouped_bar'), 'y'));
  });

  it('draws both on plots of one size, whichever value label reaches past its mark', async () => {
    // Small, as on the review screen: the doubled bar's label above it would otherwise take the plot's height.
    const size = { width: 360, height: 250, title: 'Revenue by year' };
    const doubled = scaled(REVENUE, 2);
    for (const [chartType, channel] of [['grouped_bar', 'y'], ['horizontal_bar', 'x'], ['line', 'y'], ['area', 'y']] as const) {
      const valueDomain = comparedValueDomain([REVENUE, doubled], chartType);
      const [before, after] = await Promise.all([REVENUE, doubled].map((table) => drawSpec(buildChartSpec(table, chartType, { ...size, valueDomain }))));
      expect(after?.range(channel), chartType).toEqual(before?.range(channel));
    }
    const valueDomain = comparedValueDomain([REVENUE, doubled], 'grouped_bar');
    const [before, after] = await Promise.all([REVENUE, doubled].map(async (table) => (await drawSpec(buildChartSpec(table, 'grouped_bar', { ...size, valueDomain }))).marks('layer_0_marks')));
    const bar = (items: typeof before) => items?.find((item) => item.datum?.label === '2019' && item.datum.series === 'Bridgestone')?.height ?? Number.NaN;
    expect(bar(after) / bar(before)).toBeCloseTo(2, 5);
  });

  it('shares the axis of horizontal bars, lines, areas and scatters too', async () => {
    const halved = scaled(REVENUE, 0.5);
    for (const [chartType, channel] of [['horizontal_bar', 'x'], ['line', 'y'], ['area', 'y'], ['stacked_bar', 'y']] as const) {
      const valueDomain = comparedValueDomain([REVENUE, halved], chartType);
      const original = await drawnDomain(buildChartSpec(REVENUE, chartType, { valueDomain }), channel);
      expect(await drawnDomain(buildChartSpec(halved, chartType, { valueDomain }), channel), chartType).toEqual(original);
    }
    const points = tableFromCells(['Country', 'GDP', 'Life expectancy'], [['Chad', '1.5', '54'], ['Peru', '6.6', '77']]);
    const valueDomain = comparedValueDomain([points, scaled(points, 2)], 'scatter');
    for (const channel of ['x', 'y'] as const) {
      expect(await drawnDomain(buildChartSpec(scaled(points, 2), 'scatter', { valueDomain }), channel)).toEqual(await drawnDomain(buildChartSpec(points, 'scatter', { valueDomain }), channel));
    }
  });

  it('draws exactly as before without one', () => {
    for (const chartType of ['grouped_bar', 'stacked_bar', 'line', 'area', 'scatter', 'pie'] as const) {
      expect(JSON.stringify(buildChartSpec(REVENUE, chartType, { valueDomain: null })), chartType).toBe(JSON.stringify(buildChartSpec(REVENUE, chartType)));
    }
  });
});
