import { z } from 'zod';
import { TableSourceSchema } from '../domain/benchmark-fields';
import { freeText, nameText } from '../domain/text-input';
import { DataTableSchema, tableFromCells, type DataTable } from '../table/model';
import { IdParamSchema } from './common';
import { endpoint } from './endpoint';

/**
 * A chart's data table as a curator sees and edits it: where it came from (the benchmark's
 * files, a vision model's extraction, a curator's hand) and whether someone vouched for it.
 */

/**
 * Cells, labels and headers the editor may hold: names (docs/text-input.md: no NUL or bidi
 * controls, since a label identifies a row), one line each, as the CSV and the program language read them.
 */
const CellText = nameText().max(200).refine((text) => !/[\r\n]/.test(text), 'one line only');
const Name = CellText.refine((text) => text.trim() !== '', 'empty');

/** PUT /api/charts/:id/table: the table as typed, each cell's raw text (its number is parsed as imports parse it). */
export const EditedTableSchema = z
  .object({
    title: freeText().max(300).nullable(),
    label_header: CellText,
    series: z.array(Name).min(1).max(50),
    rows: z.array(z.object({ label: Name, cells: z.array(CellText) })).min(1).max(1000),
  })
  .superRefine((table, ctx) => {
    const repeated = (texts: string[], path: (index: number) => PropertyKey[], what: string) => {
      const seen = new Map<string, number>();
      texts.forEach((text, index) => {
        const key = text.trim().toLowerCase();
        const first = seen.get(key);
        if (first === undefined) seen.set(key, index);
        else ctx.addIssue({ code: 'custom', path: path(index), message: `"${text.trim()}" repeats ${what} ${first + 1}` });
      });
    };
    repeated(table.series, (index) => ['series', index], 'series');
    repeated(table.rows.map((row) => row.label), (index) => ['rows', index, 'label'], 'row');
    table.rows.forEach((row, index) => {
      if (row.cells.length !== table.series.length) {
        ctx.addIssue({ code: 'custom', path: ['rows', index, 'cells'], message: `${row.cells.length} cells for ${table.series.length} series (row "${row.label}")` });
      }
    });
  });
export type EditedTable = z.infer<typeof EditedTableSchema>;

/** The edited table in the stored shape (labels and headers trimmed, values parsed from the raw text). */
export function editedToDataTable(edited: EditedTable): DataTable {
  return tableFromCells(
    [edited.label_header.trim(), ...edited.series.map((name) => name.trim())],
    edited.rows.map((row) => [row.label.trim(), ...row.cells.map((cell) => cell.trim())]),
  );
}

/** A stored table as the editor's rows (the raw text of each cell). */
export function dataTableToEdited(table: DataTable, title: string | null): EditedTable {
  return { title, label_header: table.label_header, series: [...table.series], rows: table.rows.map((row) => ({ label: row.label, cells: [...row.raw] })) };
}

export const ChartTableSchema = z.object({
  chart_id: z.number().int(),
  title: z.string().nullable(),
  /** Null: the chart is known only by its image, nothing extracted or typed in yet. */
  data_table: DataTableSchema.nullable(),
  table_source: TableSourceSchema.nullable(),
  table_confirmed: z.boolean(),
  /** Whether a stored image can be sent to a vision model (a drawn chart has nothing to extract from). */
  has_image: z.boolean(),
});
export type ChartTable = z.infer<typeof ChartTableSchema>;

export const SaveTableResponseSchema = z.object({
  table: ChartTableSchema,
  /** Items on the chart verified again on the new table, and those sent back to review because their answer changed. */
  reverified: z.number().int(),
  requeued: z.number().int(),
});
export type SaveTableResponse = z.infer<typeof SaveTableResponseSchema>;

export const ExtractTableResponseSchema = z.object({
  table: ChartTableSchema,
  model: z.string(),
  /** Requests made: retries and the repair turn count. */
  attempts: z.number().int(),
  cost: z.number(),
  /** False when the model is not in the price table: `cost` is then 0, not "free". */
  priced: z.boolean(),
});
export type ExtractTableResponse = z.infer<typeof ExtractTableResponseSchema>;

export const tablesApi = {
  get: endpoint('GET', '/api/charts/:id/table', { params: IdParamSchema, response: ChartTableSchema }),
  /** Curator: stores the edited table; source `curator` when it differs from the stored one; confirmed. */
  save: endpoint('PUT', '/api/charts/:id/table', { params: IdParamSchema, body: EditedTableSchema, response: SaveTableResponseSchema }),
  /** Curator: vouches for the stored table as it is. */
  confirm: endpoint('POST', '/api/charts/:id/table/confirm', { params: IdParamSchema, response: SaveTableResponseSchema }),
  /** Curator: asks the extraction model for the table of the chart's image (source `extracted`, unconfirmed). */
  extract: endpoint('POST', '/api/charts/:id/extract-table', { params: IdParamSchema, response: ExtractTableResponseSchema }),
} as const;
