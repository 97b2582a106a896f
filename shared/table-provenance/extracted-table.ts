import { z } from 'zod';
import { toChartTypeReply } from '../domain/chart-type-reply';
import { ChartTypeSchema, type ChartType } from '../domain/chart-types';
import { nameText } from '../domain/text-input';
import type { Converted } from '../generation/model-output';
import { StackingSchema, tableFromCells, type DataTable } from '../table/model';

/**
 * What a vision model fills when asked for a chart's underlying table (the chart-to-table step
 * of DePlot-style pipelines), and how its reply becomes the workbench's data table. The wire
 * shape is strict-output compatible: every field is sent as required, and a title, unit or value
 * the chart does not show is null. The fields added for issue 37 (the chart's type and drawing,
 * which values were printed, printed totals) are parsed as nullish, so a reply in the older
 * shape, or from an endpoint without strict output that leaves them out, still stores.
 */
export const ExtractedSeriesSchema = z.object({
  name: z.string().describe('The series name exactly as the legend or value axis writes it, without its unit.'),
  unit: z.string().nullable().describe('The unit of the series values as the chart shows it (%, USD, million tonnes), or null when none is shown.'),
});

export const ExtractedRowSchema = z.object({
  label: z.string().describe('The category or x-axis label of the row, exactly as written on the chart.'),
  values: z.array(z.number().nullable()).describe('One value per series, in the order of `series`; null where the chart shows no value. Stacked charts: each segment\'s own value, not the running total.'),
  printed: z
    .array(z.boolean())
    .nullish()
    .describe('One flag per value, in the order of `values`: true where the value is printed on the chart as a data label, false where it was estimated from the axis.'),
  total: z.number().nullish().describe("The row's total as printed on the chart (a label at the end of a stacked bar), or null when the chart prints none."),
});

export const ExtractedTableWireSchema = z.object({
  orientation: z
    .enum(['vertical', 'horizontal', 'none'])
    .nullish()
    .describe('Which way the bars run: vertical (they rise from the category axis), horizontal (they extend sideways), none (no bars).'),
  stacking: StackingSchema.nullish().describe('Series drawn on top of each other (bars or areas): stacked (segments add up to a total), percent (every bar or point reaches 100%), none.'),
  chart_type: ChartTypeSchema.nullish().describe('The chart type as the workbench names it; it must agree with orientation and stacking.'),
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
  /** The type the model named; null in a reply without one (the older shape). */
  chartType: ChartType | null;
}

/**
 * A series name as stored: as the chart writes it, without the unit. A name that repeats its
 * own unit in parentheses ("Share (%)" with unit "%") loses the parenthesis, since questions
 * name the series without it.
 */
export function seriesName(series: { name: string; unit: string | null }): string {
  const name = series.name.trim();
  const unit = series.unit?.trim() ?? '';
  if (unit === '') return name;
  const glued = `(${unit})`.toLowerCase();
  return name.toLowerCase().endsWith(glued) && name.length > glued.length ? name.slice(0, name.length - glued.length).trim() : name;
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

/** The reply's type, if it gave one that agrees with its orientation and stacking (the chart-type reply's rule). */
function typeOf(wire: ExtractedTableWire): Converted<ChartType | null> {
  if (!wire.chart_type) return { ok: true, value: null };
  if (!wire.orientation || !wire.stacking) return { ok: true, value: wire.chart_type };
  const checked = toChartTypeReply({ orientation: wire.orientation, stacking: wire.stacking, chart_type: wire.chart_type });
  return checked.ok ? { ok: true, value: checked.value.chartType } : checked;
}

/** How the chart draws its table, where the reply says. */
function drawnOf(wire: ExtractedTableWire): DataTable['drawn'] {
  const orientation = wire.orientation === 'vertical' || wire.orientation === 'horizontal' ? wire.orientation : undefined;
  const stacking = wire.stacking ?? undefined;
  if (!orientation && !stacking) return undefined;
  return { ...(orientation ? { orientation } : {}), ...(stacking ? { stacking } : {}) };
}

/**
 * The wire reply as a data table, or the reason it cannot be one, naming the field: the
 * repair turn shows it to the model. Rows and series must be named, and named once each,
 * since the program language addresses cells by row label and series name.
 */
export function toExtractedTable(wire: ExtractedTableWire): Converted<ExtractedTable> {
  const headers = wire.series.map(seriesName);
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
    if (row.printed && row.printed.length !== row.values.length) {
      return { ok: false, reason: `rows.${index}.printed: ${row.printed.length} flags for ${row.values.length} values (row "${row.label}")` };
    }
  }
  const labels = wire.rows.map((row) => row.label.trim());
  const rowRepeat = firstRepeat(labels);
  if (rowRepeat) return { ok: false, reason: `rows.${rowRepeat.again}.label: "${labels[rowRepeat.again]}" repeats rows.${rowRepeat.first}` };
  const chartType = typeOf(wire);
  if (!chartType.ok) return chartType;
  const header = [wire.label_header.trim() === '' ? 'Characteristic' : wire.label_header.trim(), ...headers];
  const body = wire.rows.map((row, index) => [labels[index] as string, ...row.values.map(rawCell)]);
  const table = tableFromCells(header, body);
  const units = wire.series.map((series) => (series.unit?.trim() ? series.unit.trim() : null));
  const drawn = drawnOf(wire);
  const read: DataTable = {
    ...table,
    rows: table.rows.map((row, index) => {
      const replied = wire.rows[index];
      // A missing value was neither printed nor estimated.
      const estimated = replied?.printed?.map((printed, i) => !printed && replied.values[i] !== null);
      const total = replied?.total;
      return { ...row, ...(estimated?.some(Boolean) ? { estimated } : {}), ...(typeof total === 'number' ? { total } : {}) };
    }),
    ...(units.some((unit) => unit !== null) ? { units } : {}),
    ...(drawn ? { drawn } : {}),
  };
  const title = wire.title?.trim() ?? '';
  return { ok: true, value: { title: title === '' ? null : title, table: read, chartType: chartType.value } };
}
