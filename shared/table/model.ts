import { z } from 'zod';
import { parseCellValue } from './cell';

/**
 * A chart's data table: rows are the entities on the category axis (the CSV's first column),
 * series are the value columns. `raw` keeps each cell's text exactly as the source gave it;
 * `values` holds its number, or null for a missing (`nan`, `-`) or non-numeric cell.
 */
export const DataRowSchema = z.object({
  label: z.string(),
  values: z.array(z.number().nullable()),
  raw: z.array(z.string()),
});
export type DataRow = z.infer<typeof DataRowSchema>;

export const DataTableSchema = z
  .object({
    label_header: z.string(),
    series: z.array(z.string()).min(1),
    rows: z.array(DataRowSchema),
  })
  .superRefine((table, ctx) => {
    table.rows.forEach((row, index) => {
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
