import { z } from 'zod';
import { TableSourceSchema } from '../domain/benchmark-fields';
import { ChartTypeSchema } from '../domain/chart-types';
import { RunStatusSchema } from '../domain/generation';
import { freeText, nameText } from '../domain/text-input';
import { DataTableSchema, tableFromCells, type DataTable } from '../table/model';
import { carryReading } from '../table-provenance/table-reading';
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

/**
 * PUT /api/charts/:id/table: the table as typed, each cell's raw text (its number is parsed as
 * imports parse it). `units`: each series' unit as the curator set it, by position (null or
 * blank: none shown); absent, the stored table's units follow their series by name (`carryReading`).
 */
export const EditedTableSchema = z
  .object({
    title: freeText().max(300).nullable(),
    label_header: CellText,
    series: z.array(Name).min(1).max(50),
    units: z.array(CellText.nullable()).max(50).optional(),
    rows: z.array(z.object({ label: Name, cells: z.array(CellText) })).min(1).max(1000),
  })
  .superRefine((table, ctx) => {
    if (table.units && table.units.length !== table.series.length) {
      ctx.addIssue({ code: 'custom', path: ['units'], message: `${table.units.length} units for ${table.series.length} series` });
    }
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

/** A stored table as the editor's rows (the raw text of each cell), with its units when it has them. */
export function dataTableToEdited(table: DataTable, title: string | null): EditedTable {
  const edited: EditedTable = { title, label_header: table.label_header, series: [...table.series], rows: table.rows.map((row) => ({ label: row.label, cells: [...row.raw] })) };
  return table.units ? { ...edited, units: [...table.units] } : edited;
}

/**
 * A curator's edit over the stored table, as a save stores it and the editor draws it: what the
 * extraction read carried by name (`carryReading`), and the units as the edit sets them when it
 * sets them (trimmed, blank as none; a table with no unit left keeps no `units`).
 */
export function editedOverStored(stored: DataTable | null, edited: EditedTable): DataTable {
  const carried = carryReading(stored, editedToDataTable(edited));
  if (edited.units === undefined) return carried;
  const units = edited.units.map((unit) => (unit === null || unit.trim() === '' ? null : unit.trim()));
  const table: DataTable = { ...carried };
  delete table.units;
  return units.some((unit) => unit !== null) ? { ...table, units } : table;
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

/**
 * Which charts an extraction job reads: those of the split and chart type (either left out: any)
 * that have no table; with `force`, unconfirmed extractions too. Never an imported, curator's or
 * confirmed table, never a chart without a stored image.
 */
export const ExtractionScopeSchema = z.object({
  split: z.string().min(1).max(100).optional(),
  chart_type: ChartTypeSchema.optional(),
  force: z.boolean().default(false),
});
export type ExtractionScope = z.infer<typeof ExtractionScopeSchema>;

// GET /api/extraction-jobs/plan?split=&chart_type=&force=   (what "Extract tables (N charts)" would read, and with which model)
export const ExtractionPlanQuerySchema = ExtractionScopeSchema.extend({ force: z.enum(['true', 'false']).default('false') });
export const ExtractionPlanSchema = z.object({
  charts: z.number().int(),
  /** The extraction role's model; null without an endpoint (the button then says what is missing). */
  model: z.string().nullable(),
  /** Why nothing can be extracted here, when so (no endpoint). */
  unavailable: z.string().nullable(),
  skipped_with_table: z.number().int(),
  skipped_without_image: z.number().int(),
});
export type ExtractionPlan = z.infer<typeof ExtractionPlanSchema>;

export const ExtractionFailureSchema = z.object({ chart_id: z.number().int(), chart: z.string(), kind: z.string(), reason: z.string() });
export type ExtractionFailure = z.infer<typeof ExtractionFailureSchema>;

/** A durable extraction job: its scope, progress and what its calls used (`extraction.progressed` pushes it whole). */
export const ExtractionJobSchema = z.object({
  id: z.number().int(),
  split: z.string().nullable(),
  chart_type: ChartTypeSchema.nullable(),
  force: z.boolean(),
  model: z.string(),
  status: RunStatusSchema,
  tasks_total: z.number().int(),
  tasks_done: z.number().int(),
  tasks_failed: z.number().int(),
  attempts: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cost: z.number(),
  /** False when a call's model was not in the price table: `cost` is then a lower bound. */
  priced: z.boolean(),
  /**
   * Of the prompt tokens, those its requests' images took, estimated by the model family's formula
   * (each request carries its image again); null when the model has no known formula.
   */
  image_tokens: z.number().int().nullable(),
  /** Their cost at the model's input price; null when not estimated or not priced. */
  image_cost: z.number().nullable(),
  error: z.string().nullable(),
  /** Failed charts by name with the reason (the first EXTRACTION_FAILURES_SHOWN). */
  failures: z.array(ExtractionFailureSchema),
  created_by: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type ExtractionJob = z.infer<typeof ExtractionJobSchema>;

/** How many failed charts a job lists (a job over a broken endpoint could fail thousands). */
export const EXTRACTION_FAILURES_SHOWN = 100;

// POST /api/extraction-jobs   (curator) → 201 { job }; GET /api/extraction-jobs → the newest jobs
export const ExtractionJobResponseSchema = z.object({ job: ExtractionJobSchema });
export const ExtractionJobListResponseSchema = z.object({ jobs: z.array(ExtractionJobSchema) });

export const tablesApi = {
  get: endpoint('GET', '/api/charts/:id/table', { params: IdParamSchema, response: ChartTableSchema }),
  /** Curator: stores the edited table; source `curator` when it differs from the stored one; confirmed. */
  save: endpoint('PUT', '/api/charts/:id/table', { params: IdParamSchema, body: EditedTableSchema, response: SaveTableResponseSchema }),
  /** Curator: vouches for the stored table as it is. */
  confirm: endpoint('POST', '/api/charts/:id/table/confirm', { params: IdParamSchema, response: SaveTableResponseSchema }),
  /** Curator: sets a confirmed table back to unconfirmed, as it is (nothing is verified on it until confirmed again). */
  unconfirm: endpoint('POST', '/api/charts/:id/table/unconfirm', { params: IdParamSchema, response: SaveTableResponseSchema }),
  /** Curator: asks the extraction model for the table of the chart's image (source `extracted`, unconfirmed). */
  extract: endpoint('POST', '/api/charts/:id/extract-table', { params: IdParamSchema, response: ExtractTableResponseSchema }),
} as const;

/** Extraction jobs over a split or a filter: curators start, pause, resume and cancel them; everyone sees their progress. */
export const extractionJobsApi = {
  plan: endpoint('GET', '/api/extraction-jobs/plan', { query: ExtractionPlanQuerySchema, response: ExtractionPlanSchema }),
  list: endpoint('GET', '/api/extraction-jobs', { response: ExtractionJobListResponseSchema }),
  create: endpoint('POST', '/api/extraction-jobs', { body: ExtractionScopeSchema, response: ExtractionJobResponseSchema, status: 201 }),
  pause: endpoint('POST', '/api/extraction-jobs/:id/pause', { params: IdParamSchema, response: ExtractionJobResponseSchema }),
  resume: endpoint('POST', '/api/extraction-jobs/:id/resume', { params: IdParamSchema, response: ExtractionJobResponseSchema }),
  cancel: endpoint('POST', '/api/extraction-jobs/:id/cancel', { params: IdParamSchema, response: ExtractionJobResponseSchema }),
} as const;
