import { describe, expect, it } from 'vitest';
import { seriesHeader, toExtractedTable, type ExtractedTableWire } from './extracted-table';

const wire: ExtractedTableWire = {
  title: '  Sales  ',
  label_header: '',
  series: [
    { name: 'Revenue', unit: 'USD' },
    { name: 'Share (%)', unit: '%' },
  ],
  rows: [
    { label: ' 2019 ', values: [1200, 12.5] },
    { label: '2020', values: [null, 3] },
  ],
};

describe('toExtractedTable', () => {
  it('builds the table: units in the series header unless the name says them, missing values as nan, a default row header', () => {
    expect(toExtractedTable(wire)).toEqual({
      ok: true,
      value: {
        title: 'Sales',
        table: {
          label_header: 'Characteristic',
          series: ['Revenue (USD)', 'Share (%)'],
          rows: [
            { label: '2019', values: [1200, 12.5], raw: ['1200', '12.5'] },
            { label: '2020', values: [null, 3], raw: ['nan', '3'] },
          ],
        },
      },
    });
    expect(seriesHeader({ name: 'Cases', unit: null })).toBe('Cases');
  });

  const first = wire.rows[0] as ExtractedTableWire['rows'][number];
  it.each<[ExtractedTableWire, string]>([
    [{ ...wire, rows: [first, { label: '2020', values: [1] }] }, 'rows.1.values: 1 values for 2 series (row "2020")'],
    [{ ...wire, rows: [first, { label: '2019', values: [1, 2] }] }, 'rows.1.label: "2019" repeats rows.0'],
    [{ ...wire, rows: [{ label: ' ', values: [1, 2] }] }, 'rows.0.label: empty'],
    [{ ...wire, series: [{ name: 'A', unit: null }, { name: 'a', unit: null }] }, 'series.1.name: "a" repeats series.0'],
    [{ ...wire, series: [{ name: 'A\u202Eb', unit: null }, { name: 'B', unit: null }] }, 'series.0.name: may not hold NUL or bidirectional control characters'],
    [{ ...wire, rows: [{ label: 'two\nlines', values: [1, 2] }] }, 'rows.0.label: one line only'],
  ])('refuses a reply that is no table, naming the field: %#', (bad, reason) => {
    const result = toExtractedTable(bad);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toContain(reason);
  });
});
