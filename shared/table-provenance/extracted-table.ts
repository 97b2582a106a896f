import { z } from 'zod';
import { nameText } from '../domain/text-input';
import type { Converted } from '../generation/model-output';
import { tableFromCells, type DataTable } from '../table/model';

/**
 * What a vision model fills when asked for a chart's underlying table (the chart-to-table step
 * of DePlot-style pipelines), and how its reply becomes the workbench's data table. The wire
 * shape is strict-output compatible (no optional fields, no records): a title or unit the chart
 * does not show is null, a value it does not show is null.
 */
export const ExtractedSeriesSchema = z.object({
  name: z.string().describe('The series name as the legend or value axis gives it, without its unit.'),
  unit: z.string().nullable().describe('The unit of the series values as the chart shows it (%, USD, million tonnes), or null when none is shown.'),
});

export const ExtractedRowSchema = z.object({
  label: z.string().describe('The category or x-axis label of the row, exactly as written on the chart.'),
  values: z.array(z.number().nullable()).describe('One value per series, in the order of `series`; null where the chart shows no value.'),
});

export const ExtractedTableWireSchema = z.object({
  title: z.string().nullable().describe('The chart title as written, or null when it has none.'),
  label_header: z.string().describe('What the row labels are (the category axis title, e.g. "Year" or "Country"); "Characteristic" when the chart names none.'),
  series: z.array(ExtractedSeriesSchema).min(1),
  rows: z.array(ExtractedRowSchema).min(1),
});
export type ExtractedTableWire = z.infer<typeof ExtractedTableWireSchema>;

/** The schema name the model is told (and the repair turn names). */
export const EXTRACTED_TABLE_SCHEMA_NAME = 'ChartDataTable';

export interface ExtractedTable {
  title: string | null;
  table: DataTable;
}

/** A series header as the table keeps it: the unit in parentheses unless the name already says it. */
export function seriesHeader(series: { name: string; unit: string | null }): string {
  const name = series.name.trim();
  const unit = series.unit?.trim() ?? '';
  if (unit === '' || name.toLowerCase().includes(unit.toLowerCase())) return name;
  return `${name} (${unit})`;
}

/** Labels and series names identify cells: the rules of names (docs/text-input.md), one line each. */
const NAME = nameText().refine((text) => !/[\r\n]/.test(text), 'one line only');

/** A value as a raw cell: missing values are written `nan`, as ChartQA's tables write them. */
const rawCell = (value: number | null): string => (value === null ? 'nan' : String(value));

/** The first repeated text of a list, with both positions, for a reason naming the fields. */
function firstRepeat(texts: string[]): { first: number; again: number } | null {
  const seen = new Map<string, number>();
  for (const [index, text] of texts.entries()) {
    const key = text.trim().toLowerCase();
    const earlier = seen.get(key);
    if (earlier !== undefined) return { first: earlier, again: index };
    seen.set(key, index);
  }
  return null;
}

/**
 * The wire reply as a data table, or the reason it cannot be one, naming the field: the
 * repair turn shows it to the model. Rows and series must be named, and named once each,
 * since the program language addresses cells by row label and series name.
 */
export function toExtractedTable(wire: ExtractedTableWire): Converted<ExtractedTable> {
  const headers = wire.series.map(seriesHeader);
  const names: [string, string][] = [['label_header', wire.label_header], ...headers.map((h, i): [string, string] => [`series.${i}.name`, h]), ...wire.rows.map((row, i): [string, string] => [`rows.${i}.label`, row.label])];
  for (const [field, text] of names) {
    const checked = NAME.safeParse(text);
    if (!checked.success) return { ok: false, reason: `${field}: ${checked.error.issues[0]?.message ?? 'not a name'}` };
  }
  const emptySeries = headers.findIndex((header) => header === '');
  if (emptySeries >= 0) return { ok: false, reason: `series.${emptySeries}.name: empty` };
  const seriesRepeat = firstRepeat(headers);
  if (seriesRepeat) return { ok: false, reason: `series.${seriesRepeat.again}.name: "${headers[seriesRepeat.again]}" repeats series.${seriesRepeat.first}` };
  for (const [index, row] of wire.rows.entries()) {
    if (row.label.trim() === '') return { ok: false, reason: `rows.${index}.label: empty` };
    if (row.values.length !== headers.length) {
      return { ok: false, reason: `rows.${index}.values: ${row.values.length} values for ${headers.length} series (row "${row.label}")` };
    }
  }
  const labels = wire.rows.map((row) => row.label.trim());
  const rowRepeat = firstRepeat(labels);
  if (rowRepeat) return { ok: false, reason: `rows.${rowRepeat.again}.label: "${labels[rowRepeat.again]}" repeats rows.${rowRepeat.first}` };
  const header = [wire.label_header.trim() === '' ? 'Characteristic' : wire.label_header.trim(), ...headers];
  const body = wire.rows.map((row, index) => [labels[index] as string, ...row.values.map(rawCell)]);
  const title = wire.title?.trim() ?? '';
  return { ok: true, value: { title: title === '' ? null : title, table: tableFromCells(header, body) } };
}
