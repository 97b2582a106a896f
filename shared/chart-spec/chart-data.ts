import type { ChartType } from '../domain/chart-types';
import { isPercentCell, parseCellValue } from '../table/cell';
import type { DataTable } from '../table/model';

/** The table as a chart reads it: one datum per numeric cell, its label text, and the table's orientation. */

/** One table cell with a number, in long format; missing cells have no datum. */
export interface ChartDatum {
  label: string;
  series: string;
  value: number;
  /** The value as a chart label: the cell's own text (`32.7%`) while it still matches. */
  text: string;
  row: number;
  seriesIndex: number;
  /** Outlined as changed by an edit (only where a highlight is asked for). */
  edited?: boolean;
}

const YEAR_PATTERN = /^(1[89]|20)\d\d$/;

/** Values print with at most this many decimals (OWID tables carry 13). */
const MAX_SHOWN_DECIMALS = 2;
const NUMBER_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: MAX_SHOWN_DECIMALS });
const SMALL_NUMBER_FORMAT = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/** The table in long format: one datum per numeric cell, in row order then series order. */
export function chartData(table: DataTable): ChartDatum[] {
  return table.rows.flatMap((row, rowIndex) =>
    table.series.flatMap((series, seriesIndex) => {
      const value = row.values[seriesIndex];
      if (value === null || value === undefined) return [];
      const text = displayValue(row.raw[seriesIndex], value);
      return [{ label: row.label, series, value, text, row: rowIndex, seriesIndex }];
    }),
  );
}

/** OECD and OWID tables put years across the columns; a line over time needs them as rows. */
export function hasTimeAcrossSeries(table: DataTable): boolean {
  const isYear = (text: string): boolean => YEAR_PATTERN.test(text.trim());
  return table.series.length > 1 && table.series.every(isYear) && !table.rows.every((row) => isYear(row.label));
}

/** Whether a `chartType` drawing of `table` draws it transposed: lines and areas over years across the columns. */
export function drawsTransposed(table: DataTable, chartType: ChartType): boolean {
  return (chartType === 'line' || chartType === 'area') && hasTimeAcrossSeries(table);
}

/** Swaps rows and series: each series becomes a row and each row a series. */
export function transposeTable(table: DataTable): DataTable {
  return {
    label_header: '',
    series: table.rows.map((row) => row.label),
    rows: table.series.map((label, s) => ({
      label,
      values: table.rows.map((row) => row.values[s] ?? null),
      raw: table.rows.map((row) => row.raw[s] ?? ''),
    })),
  };
}

/** The cell's own text while it still says `value` briefly; else the rounded number, keeping `%` and currency. */
function displayValue(raw: string | undefined, value: number): string {
  const cleaned = (raw ?? '').trim().replace(/\*+$/, '').trim();
  const decimals = /\.(\d+)/.exec(cleaned)?.[1]?.length ?? 0;
  if (parseCellValue(cleaned) === value && decimals <= MAX_SHOWN_DECIMALS) return cleaned;
  const format = Math.abs(value) < 1 ? SMALL_NUMBER_FORMAT : NUMBER_FORMAT;
  const currency = /^[$€£¥]/.exec(cleaned)?.[0] ?? '';
  return `${value < 0 ? '-' : ''}${currency}${format.format(Math.abs(value))}${cleaned.endsWith('%') ? '%' : ''}`;
}

/** Whether every cell with a value is written as a percentage (`32.7%`). */
export function isPercentTable(table: DataTable): boolean {
  const cells = table.rows.flatMap((row, r) => row.values.flatMap((value, s) => (value === null ? [] : [[r, s] as const])));
  return cells.length > 0 && cells.every(([r, s]) => isPercentCell(table, r, s));
}
