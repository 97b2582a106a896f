import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../table/model';
import { arrangeTable } from './chart-context';
import { timeKey, timeSeriesAscending, withTimeRowsAscending } from './time-order';
import { buildChartSpec } from './vega-lite-spec';

/** Statista's way: latest year first (two_col_61211, ACSI scores). */
const LATEST_FIRST = tableFromCells(
  ['Characteristic', 'ACSI score'],
  [
    ['2020', '72'],
    ['2019*', '70'],
    ['2018', '70'],
    ['2017', '74'],
    ['2016', '70'],
  ],
);

function categoryDomain(spec: unknown): string[] {
  const found = JSON.stringify(spec).match(/"field":"label","type":"nominal","scale":\{"domain":(\[[^\]]*\])/);
  if (!found?.[1]) throw new Error('no category axis in the spec');
  return JSON.parse(found[1]) as string[];
}

describe('timeKey', () => {
  it('places years, seasons, quarters, halves, months and fiscal years in time', () => {
    expect(timeKey('2019*')).toBe(2019);
    expect(timeKey('2019/20')).toBe(2019);
    expect(timeKey('Q3 2018')).toBe(2018.5);
    expect(timeKey("Q1 '18")).toBe(2018);
    expect(timeKey('H2 2020')).toBe(2020.5);
    expect(timeKey('Mar 2020')).toBeCloseTo(2020 + 2 / 12);
    expect(timeKey("Dec '98")).toBeCloseTo(1998 + 11 / 12);
    expect(timeKey('FY 2021')).toBe(2021);
  });
  it('is null for labels that are not times, numbers included', () => {
    for (const label of ['China', '18-29', '5', '150', 'Total']) expect(timeKey(label)).toBeNull();
  });
});

describe('withTimeRowsAscending', () => {
  it('puts time rows earliest first, labels and cells together', () => {
    const sorted = withTimeRowsAscending(LATEST_FIRST);
    expect(sorted.rows.map((row) => row.label)).toEqual(['2016', '2017', '2018', '2019*', '2020']);
    expect(sorted.rows.map((row) => row.raw[0])).toEqual(['70', '74', '70', '70', '72']);
  });
  it('sorts any order, mixed years and quarters too (multi_col_20086)', () => {
    const t = tableFromCells(['Characteristic', 'Share'], [['Q1 2018', '32.3%'], ['2017', '32.7%'], ['Q2 2018', '31%']]);
    expect(withTimeRowsAscending(t).rows.map((row) => row.label)).toEqual(['2017', 'Q1 2018', 'Q2 2018']);
  });
  it('leaves tables that are not over time, or already in order, as they are', () => {
    const countries = tableFromCells(['Country', 'Value'], [['Sudan', '1'], ['Benin', '2']]);
    expect(withTimeRowsAscending(countries)).toBe(countries);
    const partly = tableFromCells(['Year', 'Value'], [['2020', '1'], ['Total', '2']]);
    expect(withTimeRowsAscending(partly)).toBe(partly);
    const ascending = withTimeRowsAscending(LATEST_FIRST);
    expect(withTimeRowsAscending(ascending)).toBe(ascending);
  });
  it('orders years across the columns earliest first', () => {
    expect(timeSeriesAscending(['2010', '2000', '2005'])).toEqual(['2000', '2005', '2010']);
    expect(timeSeriesAscending(['Male', 'Female'])).toEqual(['Male', 'Female']);
  });
});

describe('buildChartSpec draws time earliest first, whatever the table order', () => {
  it('for lines and bars alike', () => {
    for (const chartType of ['line', 'vertical_bar', 'area', 'horizontal_bar'] as const) {
      expect(categoryDomain(buildChartSpec(LATEST_FIRST, chartType)), chartType).toEqual(['2016', '2017', '2018', '2019*', '2020']);
    }
  });
  it('joins a line’s points in time order', () => {
    const spec = JSON.stringify(buildChartSpec(LATEST_FIRST, 'line'));
    expect(spec).toContain('{"label":"2016","series":"ACSI score","value":70,"text":"70","row":0,"seriesIndex":0}');
    expect(spec).toContain('"order":{"field":"row","type":"quantitative"}');
  });
  it('for OWID tables with years across the columns, drawn as a line per row', () => {
    const t = tableFromCells(['Entity', '2010', '1990', '2000'], [['Albania', '94', '84', '88'], ['Benin', '88', '86', '84']]);
    expect(categoryDomain(buildChartSpec(t, 'line'))).toEqual(['1990', '2000', '2010']);
  });
  it('keeps the series order the annotation gives over the time order', () => {
    const t = tableFromCells(['Entity', '1990', '2000'], [['Albania', '84', '88']]);
    expect(arrangeTable(t, { series_order: ['2000', '1990'], series_colours: {}, row_colours: {} }).series).toEqual(['2000', '1990']);
    expect(arrangeTable(tableFromCells(['Entity', '2000', '1990'], [['Albania', '88', '84']]), null).series).toEqual(['1990', '2000']);
  });
});
