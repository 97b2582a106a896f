import { preparedOnce, type Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { ChartTable } from '../../shared/api/tables';
import { TableSourceSchema, type TableSource } from '../../shared/domain/benchmark-fields';
import { ChartTypeSchema, type ChartType } from '../../shared/domain/chart-types';
import { DataTableSchema, type DataTable } from '../../shared/table/model';

/** All SQL of a chart's table as extraction and curators write it (charts.data_table, table_source, table_confirmed). */

interface TableRow {
  id: number;
  title: string | null;
  data_table: string | null;
  table_source: string | null;
  table_confirmed: number;
  has_image: number;
}

/** A chart an extraction run may read: it has a stored image to send. */
export interface ChartToExtract {
  id: number;
  name: string;
  chart_type: ChartType;
  /** An annotation or a curator decided its type: an extraction keeps it (and the request says it). */
  type_known: boolean;
}

/** 1 when the chart's type is one an extraction keeps (shared/domain/chart-types.ts `typeKeptByExtraction`), for the chart aliased `alias`. */
export const typeKnownSql = (alias = 'charts') => `${alias}.type_source IN ('annotation', 'curator')`;

function prepare(db: Db) {
  return {
    table: db.prepare(`SELECT c.id, c.title, c.data_table, c.table_source, c.table_confirmed,
        EXISTS (SELECT 1 FROM chart_images i WHERE i.chart_id = c.id) AS has_image
      FROM charts c WHERE c.id = ?`),
    // Charts without a table, and with `force` unconfirmed extractions too; never an imported,
    // typed-in or confirmed table. Only charts with a stored image: a drawn chart shows its own table.
    toExtract: db.prepare(`SELECT c.id, c.split || '/' || c.imgname AS name, c.chart_type, ${typeKnownSql('c')} AS type_known FROM charts c
      WHERE (@chart_id IS NULL OR c.id = @chart_id) AND (@split IS NULL OR c.split = @split)
        AND (@chart_type IS NULL OR c.chart_type = @chart_type)
        AND EXISTS (SELECT 1 FROM chart_images i WHERE i.chart_id = c.id)
        AND (c.data_table IS NULL OR (@force = 1 AND c.table_source = 'extracted' AND c.table_confirmed = 0))
      ORDER BY c.id`),
    // What a run leaves alone, counted for its report.
    skipped: db.prepare(`SELECT
        COALESCE(SUM(c.data_table IS NOT NULL AND NOT (@force = 1 AND c.table_source = 'extracted' AND c.table_confirmed = 0)), 0) AS with_table,
        COALESCE(SUM(c.data_table IS NULL AND NOT EXISTS (SELECT 1 FROM chart_images i WHERE i.chart_id = c.id)), 0) AS without_image
      FROM charts c WHERE (@chart_id IS NULL OR c.id = @chart_id) AND (@split IS NULL OR c.split = @split)
        AND (@chart_type IS NULL OR c.chart_type = @chart_type)`),
    // An extraction fills a missing title; a curator's save sets it.
    store: db.prepare(`UPDATE charts SET data_table = @data_table, row_count = @row_count, series_count = @series_count,
        table_source = @table_source, table_confirmed = @table_confirmed,
        title = CASE WHEN @set_title = 1 THEN @title ELSE COALESCE(title, @title) END,
        updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
      WHERE id = @id`),
    confirm: db.prepare(`UPDATE charts SET table_confirmed = 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
      WHERE id = ? AND data_table IS NOT NULL AND table_confirmed = 0`),
    unconfirm: db.prepare(`UPDATE charts SET table_confirmed = 0, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
      WHERE id = ? AND data_table IS NOT NULL AND table_confirmed = 1`),
  };
}

const statements = preparedOnce(prepare);

function parseTable(json: string, chartId: number): DataTable {
  const parsed = DataTableSchema.safeParse(JSON.parse(json));
  if (!parsed.success) throw new Error(`charts.data_table of chart ${chartId}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

export function getChartTable(db: Db, chartId: number): ChartTable | null {
  const row = statements(db).table.get(chartId) as TableRow | undefined;
  if (!row) return null;
  return {
    chart_id: row.id,
    title: row.title,
    data_table: row.data_table === null ? null : parseTable(row.data_table, row.id),
    table_source: row.table_source === null ? null : TableSourceSchema.parse(row.table_source),
    table_confirmed: row.table_confirmed === 1,
    has_image: row.has_image === 1,
  };
}

export interface ExtractionScope {
  split?: string | undefined;
  chartType?: ChartType | undefined;
  chartId?: number | undefined;
  force?: boolean | undefined;
}

const scopeParams = (scope: ExtractionScope) => ({ split: scope.split ?? null, chart_type: scope.chartType ?? null, chart_id: scope.chartId ?? null, force: scope.force ? 1 : 0 });

export function chartsToExtract(db: Db, scope: ExtractionScope): ChartToExtract[] {
  const rows = statements(db).toExtract.all(scopeParams(scope)) as { id: number; name: string; chart_type: string; type_known: number }[];
  return rows.map((row) => ({ ...row, chart_type: ChartTypeSchema.parse(row.chart_type), type_known: row.type_known === 1 }));
}

/** Charts in scope a run does not read: those with a table it must keep, those without a table or an image. */
export function chartsSkipped(db: Db, scope: ExtractionScope): { with_table: number; without_image: number } {
  return statements(db).skipped.get(scopeParams(scope)) as { with_table: number; without_image: number };
}

export interface TableWrite {
  table: DataTable;
  source: TableSource;
  confirmed: boolean;
  title: string | null;
  /** True: the title is set as given (a curator's); false: it only fills a missing one (an extraction's). */
  setTitle: boolean;
}

export function storeChartTable(db: Db, chartId: number, write: TableWrite): void {
  statements(db).store.run({
    id: chartId,
    data_table: JSON.stringify(write.table),
    row_count: write.table.rows.length,
    series_count: write.table.series.length,
    table_source: write.source,
    table_confirmed: write.confirmed ? 1 : 0,
    title: write.title,
    set_title: write.setTitle ? 1 : 0,
  });
}

/**
 * The type a table's extraction named, as the chart's (source `extracted`, no other evidence)
 * unless an annotation or a curator decided it (a vision type job's or the questions' inference
 * gives way: the extraction looked at the whole chart). Whether it was stored.
 */
export function storeExtractedType(db: Db, chartId: number, chartType: ChartType): boolean {
  return (
    statement(db, `UPDATE charts SET chart_type = @chart_type, type_source = 'extracted', type_evidence = NULL, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
      WHERE id = @id AND NOT ${typeKnownSql()}`).run({ id: chartId, chart_type: chartType }).changes === 1
  );
}

/** False when there was nothing to confirm (no table, or confirmed already). */
export function confirmChartTable(db: Db, chartId: number): boolean {
  return statements(db).confirm.run(chartId).changes > 0;
}

/** False when there was nothing to set back (no table, or not confirmed). */
export function unconfirmChartTable(db: Db, chartId: number): boolean {
  return statements(db).unconfirm.run(chartId).changes > 0;
}
