import { describe, expect, it } from 'vitest';
import { ExtractedTableWireSchema, seriesName, toExtractedTable, type ExtractedTableWire } from './extracted-table';
import { carryReading } from './table-reading';
import { DataTableSchema } from '../table/model';

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
  it('stores a reply in the older shape (no type, no printed flags, no totals): names without units, units apart, missing values as nan, a default row header', () => {
    const parsed = ExtractedTableWireSchema.parse(JSON.parse(JSON.stringify(wire)));
    expect(toExtractedTable(parsed)).toEqual({
      ok: true,
      value: {
        title: 'Sales',
        chartType: null,
        table: {
          label_header: 'Characteristic',
          series: ['Revenue', 'Share'],
          units: ['USD', '%'],
          rows: [
            { label: '2019', values: [1200, 12.5], raw: ['1200', '12.5'] },
            { label: '2020', values: [null, 3], raw: ['nan', '3'] },
          ],
        },
      },
    });
    expect(seriesName({ name: 'Cases', unit: null })).toBe('Cases');
    expect(seriesName({ name: '2015 (million Canadian dollars)', unit: 'million Canadian dollars' })).toBe('2015');
    // A parenthesis that is not the unit is part of the name as the chart writes it.
    expect(seriesName({ name: 'Spain (mainland)', unit: '%' })).toBe('Spain (mainland)');
  });

  it('keeps the type, the drawing, which values were estimated and the printed totals', () => {
    const reply: ExtractedTableWire = {
      orientation: 'horizontal',
      stacking: 'stacked',
      chart_type: 'stacked_bar',
      title: 'Market share of supermarkets in Spain',
      label_header: 'Year',
      series: [
        { name: 'Mercadona', unit: '%' },
        { name: 'Carrefour', unit: '%' },
      ],
      rows: [
        { label: '2019', values: [24.5, 8.4], printed: [true, true], total: 32.9 },
        { label: '2020', values: [25.5, null], printed: [false, false], total: null },
      ],
    };
    const result = toExtractedTable(reply);
    expect(result.ok && result.value.chartType).toBe('stacked_bar');
    const table = result.ok ? result.value.table : null;
    expect(table).toMatchObject({
      series: ['Mercadona', 'Carrefour'],
      units: ['%', '%'],
      drawn: { orientation: 'horizontal', stacking: 'stacked' },
      rows: [{ label: '2019', total: 32.9 }, { label: '2020', estimated: [true, false] }],
    });
    // All printed: no flags; a missing value is no estimate.
    expect(table?.rows[0]).not.toHaveProperty('estimated');
    expect(DataTableSchema.safeParse(table).success).toBe(true);
  });

  const first = wire.rows[0] as ExtractedTableWire['rows'][number];
  it.each<[ExtractedTableWire, string]>([
    [{ ...wire, rows: [first, { label: '2020', values: [1] }] }, 'rows.1.values: 1 values for 2 series (row "2020")'],
    [{ ...wire, rows: [first, { label: '2019', values: [1, 2] }] }, 'rows.1.label: "2019" repeats rows.0'],
    [{ ...wire, rows: [{ label: ' ', values: [1, 2] }] }, 'rows.0.label: empty'],
    [{ ...wire, series: [{ name: 'A', unit: null }, { name: 'a', unit: null }] }, 'series.1.name: "a" repeats series.0'],
    [{ ...wire, series: [{ name: 'A\u202Eb', unit: null }, { name: 'B', unit: null }] }, 'series.0.name: may not hold NUL or bidirectional control characters'],
    [{ ...wire, rows: [{ label: 'two\nlines', values: [1, 2] }] }, 'rows.0.label: one line only'],
    [{ ...wire, rows: [{ label: '2019', values: [1, 2], printed: [true] }] }, 'rows.0.printed: 1 flags for 2 values'],
    [{ ...wire, orientation: 'vertical', stacking: 'none', chart_type: 'horizontal_bar' }, 'chart_type: "horizontal_bar" has horizontal bars, but orientation is "vertical"'],
  ])('refuses a reply that is no table, naming the field: %#', (bad, reason) => {
    const result = toExtractedTable(bad);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toContain(reason);
  });
});

describe('carryReading', () => {
  const stored = DataTableSchema.parse({
    label_header: 'Year',
    series: ['Mercadona', 'Carrefour'],
    units: ['%', null],
    drawn: { orientation: 'vertical', stacking: 'percent' },
    rows: [
      { label: '2019', values: [60, 40], raw: ['60', '40'], estimated: [true, true], total: 100 },
      { label: '2020', values: [55, 45], raw: ['55', '45'] },
    ],
  });

  it('keeps units, drawing, totals and estimates of cells the curator left alone; a typed-over cell is no longer an estimate', () => {
    const edited = DataTableSchema.parse({
      label_header: 'Year',
      series: ['Carrefour', 'Mercadona', 'Lidl'],
      rows: [
        { label: '2019', values: [41, 60, 0], raw: ['41', '60', '0'] },
        { label: '2021', values: [1, 2, 3], raw: ['1', '2', '3'] },
      ],
    });
    expect(carryReading(stored, edited)).toEqual({
      ...edited,
      units: [null, '%', null],
      drawn: { orientation: 'vertical', stacking: 'percent' },
      rows: [{ ...edited.rows[0], estimated: [false, true, false], total: 100 }, edited.rows[1]],
    });
  });

  it('changes nothing of a table that was not extracted', () => {
    const plain = DataTableSchema.parse({ label_header: 'Year', series: ['A'], rows: [{ label: '2019', values: [1], raw: ['1'] }] });
    expect(carryReading(plain, plain)).toEqual(plain);
    expect(carryReading(null, plain)).toEqual(plain);
  });
});
