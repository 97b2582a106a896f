import { describe, expect, it } from 'vitest';
import { toExtractedTable, type ExtractedTableWire } from '../table-provenance/extracted-table';
import type { DataTable } from './model';
import { stackedTotalMismatches } from './printed-totals';

/** A Statista-style stacked bar chart of revenue by segment, totals printed above the bars. */
function read(reply: Partial<ExtractedTableWire>): DataTable {
  const result = toExtractedTable({
    orientation: 'vertical',
    stacking: 'stacked',
    chart_type: 'stacked_bar',
    title: 'Revenue of Nintendo by segment',
    label_header: 'Year',
    series: [
      { name: 'Hardware', unit: 'billion yen' },
      { name: 'Software', unit: 'billion yen' },
    ],
    rows: [
      { label: '2019', values: [713.4, 488.3], printed: [true, true], total: 1201.7 },
      { label: '2020', values: [760.2, 548.4], printed: [true, true], total: 1308.6 },
    ],
    ...reply,
  });
  if (!result.ok) throw new Error(result.reason);
  return result.value.table;
}

describe('stacked rows against the totals the chart prints', () => {
  it('passes rows whose segments reach their printed totals', () => {
    expect(stackedTotalMismatches(read({}), 'stacked_bar')).toEqual([]);
  });

  it('flags a row whose segments were read as running totals (the top edge, not the segment)', () => {
    const cumulative = read({
      rows: [
        { label: '2019', values: [713.4, 1201.7], printed: [true, false], total: 1201.7 },
        { label: '2020', values: [760.2, 548.4], printed: [true, true], total: 1308.6 },
      ],
    });
    expect(stackedTotalMismatches(cumulative, 'stacked_bar')).toEqual([{ label: '2019', expected: 1201.7, sum: expect.closeTo(1915.1, 6) }]);
  });

  it('holds 100 % stacked rows to 100 without printed totals, and leaves unstacked or total-less charts alone', () => {
    const percent = read({
      stacking: 'percent',
      rows: [
        { label: '2019', values: [60, 40], printed: [true, true], total: null },
        { label: '2020', values: [70, 40], printed: [true, true], total: null },
      ],
    });
    expect(stackedTotalMismatches(percent, 'stacked_bar')).toEqual([{ label: '2020', expected: 100, sum: 110 }]);
    const noTotals = read({ rows: [{ label: '2019', values: [1, 2], printed: null, total: null }] });
    expect(stackedTotalMismatches(noTotals, 'stacked_bar')).toEqual([]);
    const grouped = read({ stacking: 'none', chart_type: 'grouped_bar', rows: [{ label: '2019', values: [1, 2], printed: null, total: 10 }] });
    expect(stackedTotalMismatches(grouped, 'grouped_bar')).toEqual([]);
  });
});
