import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../table/model';
import { chartTypeFromAnnotation, inferChartType, looksLikeTimeLabel } from './infer-chart-type';

const table = (header: string[], body: string[][]) => tableFromCells(header, body);

describe('inferChartType', () => {
  it('reads a time axis as a line chart', () => {
    const t = table(['Year', 'Sales'], ['2015', '2016', '2017', '2018', '2019'].map((y, i) => [y, String(10 + i)]));
    expect(inferChartType(t)).toBe('line');
  });
  it('reads one series of shares summing to 100 as a pie', () => {
    expect(inferChartType(table(['Answer', 'Share'], [['Yes', '16%'], ['No', '11%'], ['Maybe', '73%']]))).toBe('pie');
  });
  it('reads rows of shares summing to 100 as a stacked bar', () => {
    const t = table(['Group', 'A', 'B'], [['x', '40', '60'], ['y', '55', '45']]);
    expect(inferChartType(t)).toBe('stacked_bar');
  });
  it('reads other multi-series tables as grouped bars', () => {
    expect(inferChartType(table(['Group', 'A', 'B'], [['x', '4', '6'], ['y', '5', '9']]))).toBe('grouped_bar');
  });
  it('reads long rankings as horizontal bars and short ones as vertical bars', () => {
    const many = Array.from({ length: 13 }, (_, i) => [`Team ${i}`, String(i * 3 + 1)]);
    expect(inferChartType(table(['Team', 'Wins'], many))).toBe('horizontal_bar');
    expect(inferChartType(table(['Team', 'Wins'], [['A', '3'], ['B', '5']]))).toBe('vertical_bar');
  });
  it('knows season, quarter and month labels as time', () => {
    for (const label of ['2019/20', 'Q1 2018', 'Jan 2020', '2019*', 'Sept. 2019', "Oct '20"]) expect(looksLikeTimeLabel(label)).toBe(true);
    expect(looksLikeTimeLabel('Germany')).toBe(false);
  });
  it('knows a month alone as time, but not a word that starts like one', () => {
    for (const label of ['Jan', 'Feb', 'June', 'Sep', 'December']) expect(looksLikeTimeLabel(label), label).toBe(true);
    for (const label of ['Market', 'Mayor', 'Decor', 'Junk food', 'Marketing 2019']) expect(looksLikeTimeLabel(label), label).toBe(false);
    const monthly = table(['Month', '2019', '2020'], ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'].map((m, i) => [m, String(150 + i), String(160 + i)]));
    expect(inferChartType(monthly)).toBe('line');
  });
});

describe('chartTypeFromAnnotation', () => {
  it("maps ChartQA's type names and our vocabulary", () => {
    expect(chartTypeFromAnnotation('v_bar', 1)).toBe('vertical_bar');
    expect(chartTypeFromAnnotation('v_bar', 3)).toBe('grouped_bar');
    expect(chartTypeFromAnnotation('h_bar', 1)).toBe('horizontal_bar');
    expect(chartTypeFromAnnotation('pie', 1)).toBe('pie');
    expect(chartTypeFromAnnotation('stacked_bar', 2)).toBe('stacked_bar');
    expect(chartTypeFromAnnotation('radar', 2)).toBeNull();
  });
});
