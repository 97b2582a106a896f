import { z } from 'zod';
import { parseCellValue } from './cell';

/** Which way a chart's bars run. */
export const BarOrientationSchema = z.enum(['vertical', 'horizontal']);
export type BarOrientation = z.infer<typeof BarOrientationSchema>;

/** How a chart stacks its series: side by side (none), segments adding up to a total (stacked), or to 100 % in every bar (percent). */
export const StackingSchema = z.enum(['none', 'stacked', 'percent']);
export type Stacking = z.infer<typeof StackingSchema>;

/**
 * A chart's data table: rows are the entities on the category axis (the CSV's first column),
 * series are the value columns. `raw` keeps each cell's text exactly as the source gave it;
 * `values` holds its number, or null for a missing (`nan`, `-`) or non-numeric cell.
 */
export const DataRowSchema = z.object({
  label: z.string(),
  values: z.array(z.number().nullable()),
  raw: z.array(z.string()),
  /**
   * Per value, true where a vision model estimated it from an axis rather than reading a data
   * label printed on the chart. Only an extraction writes it, and only on rows with an estimate:
   * absent means printed, or not known (imported and typed-in tables).
   */
  estimated: z.array(z.boolean()).optional(),
  /** The row's total as the chart prints it (a stacked bar's end label), where an extraction read one. */
  total: z.number().optional(),
});
export type DataRow = z.infer<typeof DataRowSchema>;

export const DataTableSchema = z
  .object({
    label_header: z.string(),
    series: z.array(z.string()).min(1),
    rows: z.array(DataRowSchema),
    /**
     * Each series' unit as the chart shows it ("%", "million tonnes"), apart from its name so
     * questions and edits name series as the chart does; null where none is shown. Written by
     * extraction; absent on imported tables (whose headers may carry a unit in their text).
     */
    units: z.array(z.string().nullable()).optional(),
    /** How the original chart draws the table, as its extraction read it: redraws follow it. */
    drawn: z.object({ orientation: BarOrientationSchema.optional(), stacking: StackingSchema.optional() }).optional(),
  })
  .superRefine((table, ctx) => {
    if (table.units && table.units.length !== table.series.length) {
      ctx.addIssue({ code: 'custom', path: ['units'], message: `${table.units.length} units for ${table.series.length} series` });
    }
    table.rows.forEach((row, index) => {
      if (row.estimated && row.estimated.length !== table.series.length) {
        ctx.addIssue({ code: 'custom', path: ['rows', index, 'estimated'], message: `row "${row.label}" has ${row.estimated.length} estimate flags for ${table.series.length} series` });
      }
      if (row.values.length !== table.series.length || row.raw.length !== table.series.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['rows', index],
          message: `row "${row.label}" has ${row.values.length} values for ${table.series.length} series`,
        });
      }
    });
  });
export type DataTable = z.infer<typeof DataTableSchema>;

/** Builds a table from a header row and data rows of raw cell text (first column = labels). */
export function tableFromCells(header: string[], body: string[][]): DataTable {
  const [labelHeader = '', ...series] = header;
  return {
    label_header: labelHeader,
    series,
    rows: body.map(([label = '', ...cells]) => ({
      label,
      raw: cells,
      values: cells.map(parseCellValue),
    })),
  };
}
