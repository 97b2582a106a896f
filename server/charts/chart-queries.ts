import type { Db } from '../../db/database';
import { parseJsonColumn } from '../../db/json-column';
import { containsPattern, whereClause } from '../../db/sql-filters';
import { statement } from '../../db/statements';
import type { ChartDetail, ChartListQuery, ChartQuestion, ChartSummary, FactualQa } from '../../shared/api/charts';
import type { DrawingStyle } from '../../shared/chart-spec/drawing-style';
import { AnswerKindSchema, QaBenchmarkFieldsSchema, TableSourceSchema } from '../../shared/domain/benchmark-fields';
import { ChartTypeSchema, TypeEvidenceSchema, TypeSourceSchema, type ChartType, type TypeEvidence, type TypeSource } from '../../shared/domain/chart-types';
import { QaSourceSchema, type QaSource } from '../../shared/domain/qa';
import type { DataTable } from '../../shared/table/model';
import { numberOrText } from '../../shared/domain/answer-kind';
import { loadChartGroup, type GroupMember } from './chart-group-queries';
import { parsedChart } from './parsed-chart-cache';
import { parseStoredTable, storedDrawingStyle } from './stored-chart';
import { typeConfirmedSql } from './type-state-queries';

/** All SQL of the charts domain (charts, their images and factual questions). */

/** A chart known only by its image (a benchmark import) where its data table is needed. */
export class ChartWithoutTableError extends Error {
  constructor(
    readonly chartId: number,
    readonly chartName: string,
  ) {
    super(`chart ${chartId} (${chartName}) has no data table (image only)`);
    this.name = 'ChartWithoutTableError';
  }
}

/** Whether a question's chart has a table, a confirmed one, and its image: what generation and evaluation check first. */
export function chartTableOfQa(db: Db, qaId: number): { chart_id: number; name: string; has_table: boolean; table_confirmed: boolean; image_missing: boolean } | null {
  const row = statement(db,
      `SELECT c.id, c.split, c.imgname, c.data_table IS NOT NULL AS has_table, c.table_confirmed, c.image_ref,
         EXISTS (SELECT 1 FROM chart_images i WHERE i.chart_id = c.id) AS has_image
       FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE q.id = ?`,
    )
    .get(qaId) as { id: number; split: string; imgname: string; has_table: number; table_confirmed: number; image_ref: string | null; has_image: number } | undefined;
  if (!row) return null;
  return { chart_id: row.id, name: `${row.split}/${row.imgname}`, has_table: row.has_table === 1, table_confirmed: row.table_confirmed === 1, image_missing: row.image_ref !== null && row.has_image === 0 };
}

interface ChartRow {
  id: number;
  split: string;
  imgname: string;
  title: string | null;
  chart_type: string;
  type_source: string;
  type_evidence: string | null;
  type_confirmed: number;
  row_count: number;
  series_count: number;
  has_image: number;
  qa_count: number;
  table_source: string | null;
  table_confirmed: number;
  image_ref: string | null;
}

interface ChartDetailRow extends ChartRow {
  data_table: string | null;
  annotation: string | null;
  source_file: string;
  imported_at: string;
  updated_at: string;
}

const SUMMARY_COLUMNS = `c.id, c.split, c.imgname, c.title, c.chart_type, c.type_source, c.type_evidence, ${typeConfirmedSql('c')} AS type_confirmed, c.row_count, c.series_count,
  c.table_source, c.table_confirmed, c.image_ref,
  EXISTS (SELECT 1 FROM chart_images i WHERE i.chart_id = c.id) AS has_image,
  (SELECT COUNT(*) FROM factual_qas q WHERE q.chart_id = c.id) AS qa_count`;

function toSummary(row: ChartRow): ChartSummary {
  return {
    id: row.id,
    split: row.split,
    imgname: row.imgname,
    title: row.title,
    chart_type: ChartTypeSchema.parse(row.chart_type),
    type_source: TypeSourceSchema.parse(row.type_source),
    type_evidence: row.type_evidence === null ? null : TypeEvidenceSchema.parse(row.type_evidence),
    type_confirmed: row.type_confirmed === 1,
    has_image: row.has_image === 1,
    rows: row.row_count,
    series: row.series_count,
    qa_count: row.qa_count,
    table_source: row.table_source === null ? null : TableSourceSchema.parse(row.table_source),
    table_confirmed: row.table_confirmed === 1,
    // The source names an image (benchmarks do) and none is stored: nothing to show or evaluate on.
    image_missing: row.image_ref !== null && row.has_image === 0,
  };
}

export function listCharts(db: Db, query: ChartListQuery): { charts: ChartSummary[]; total: number } {
  const { sql: whereSql, params } = whereClause([
    { sql: `(c.imgname LIKE @q ESCAPE '\\' OR c.title LIKE @q ESCAPE '\\' OR c.data_table LIKE @q ESCAPE '\\')`, param: 'q', value: containsPattern(query.q) },
    { sql: 'c.split = @split', param: 'split', value: query.split },
    { sql: 'c.chart_type = @chart_type', param: 'chart_type', value: query.chart_type },
  ]);
  const total = (statement(db, `SELECT COUNT(*) AS n FROM charts c ${whereSql}`).get(params) as { n: number }).n;
  const rows = statement(db, `SELECT ${SUMMARY_COLUMNS} FROM charts c ${whereSql} ORDER BY c.split, c.imgname LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: query.page_size, offset: (query.page - 1) * query.page_size }) as ChartRow[];
  return { charts: rows.map(toSummary), total };
}

export function chartFacets(db: Db): { splits: { split: string; count: number }[]; chart_types: { chart_type: ChartType; count: number }[] } {
  const splits = statement(db, 'SELECT split, COUNT(*) AS count FROM charts GROUP BY split ORDER BY split').all() as {
    split: string;
    count: number;
  }[];
  const types = statement(db, 'SELECT chart_type, COUNT(*) AS count FROM charts GROUP BY chart_type ORDER BY chart_type').all() as {
    chart_type: string;
    count: number;
  }[];
  return { splits, chart_types: types.map((t) => ({ chart_type: ChartTypeSchema.parse(t.chart_type), count: t.count })) };
}

export function getChartSummary(db: Db, id: number): ChartSummary | null {
  const row = statement(db, `SELECT ${SUMMARY_COLUMNS} FROM charts c WHERE c.id = ?`).get(id) as ChartRow | undefined;
  return row ? toSummary(row) : null;
}

export function getChartDetail(db: Db, id: number): ChartDetail | null {
  const row = statement(db, `SELECT ${SUMMARY_COLUMNS}, c.data_table, c.annotation, c.source_file, c.imported_at, c.updated_at FROM charts c WHERE c.id = ?`)
    .get(id) as ChartDetailRow | undefined;
  if (!row) return null;
  const table = row.data_table === null ? null : parseStoredTable(row.data_table, id);
  return {
    ...toSummary(row),
    data_table: table,
    drawing_style: table === null ? null : storedDrawingStyle(row.annotation, table),
    source_file: row.source_file,
    imported_at: row.imported_at,
    updated_at: row.updated_at,
  };
}

export function getChartForRender(
  db: Db,
  id: number,
): { table: DataTable; chart_type: ChartType; title: string | null; style: DrawingStyle | null; updated_at: string; name: string } | null {
  const row = statement(db, 'SELECT split, imgname, data_table, annotation, chart_type, title, updated_at FROM charts WHERE id = ?').get(id) as
    | { split: string; imgname: string; data_table: string | null; annotation: string | null; chart_type: string; title: string | null; updated_at: string }
    | undefined;
  if (!row) return null;
  if (row.data_table === null) throw new ChartWithoutTableError(id, `${row.split}/${row.imgname}`);
  const table = parseStoredTable(row.data_table, id);
  return {
    table,
    chart_type: ChartTypeSchema.parse(row.chart_type),
    title: row.title,
    style: storedDrawingStyle(row.annotation, table),
    updated_at: row.updated_at,
    name: `${row.split}/${row.imgname}`,
  };
}

/**
 * `getChartForRender` through the parsed-chart cache: the table and style are parsed once while
 * the chart's stored text stays the same, and are shared, frozen. For callers that only read
 * them (an evaluation's drawings, asked several times per item).
 */
export function getSharedChartForRender(db: Db, id: number): { table: DataTable; chart_type: ChartType; title: string | null; style: DrawingStyle | null; updated_at: string } | null {
  const row = statement(db, 'SELECT split, imgname, data_table, annotation, chart_type, title, updated_at FROM charts WHERE id = ?').get(id) as
    | { split: string; imgname: string; data_table: string | null; annotation: string | null; chart_type: string; title: string | null; updated_at: string }
    | undefined;
  if (!row) return null;
  if (row.data_table === null) throw new ChartWithoutTableError(id, `${row.split}/${row.imgname}`);
  const { table, style } = parsedChart(id, row.data_table, row.annotation);
  return { table, chart_type: ChartTypeSchema.parse(row.chart_type), title: row.title, style, updated_at: row.updated_at };
}

/** Charts of accepted items whose image a benchmark named but the import did not find ("split/imgname"), a few for the message. */
export function imageMissingChartsOfAccepted(db: Db, limit = 5): string[] {
  const rows = statement(db,
      `SELECT DISTINCT c.split, c.imgname FROM hqa_items i JOIN charts c ON c.id = i.chart_id
       WHERE i.status = 'accepted' AND c.image_ref IS NOT NULL AND NOT EXISTS (SELECT 1 FROM chart_images ci WHERE ci.chart_id = c.id)
       ORDER BY c.split, c.imgname LIMIT ?`,
    )
    .all(limit) as { split: string; imgname: string }[];
  return rows.map((row) => `${row.split}/${row.imgname}`);
}

/** False for a chart known only by its image (and for no such chart). */
export function chartHasTable(db: Db, id: number): boolean {
  return statement(db, 'SELECT 1 FROM charts WHERE id = ? AND data_table IS NOT NULL').get(id) !== undefined;
}

export function getChartImage(db: Db, id: number): { png: Buffer; sha256: string } | null {
  return (statement(db, 'SELECT png, sha256 FROM chart_images WHERE chart_id = ?').get(id) as { png: Buffer; sha256: string } | undefined) ?? null;
}

export function listQasForChart(db: Db, chartId: number): ChartQuestion[] {
  const rows = statement(db, 'SELECT id, chart_id, query, label, source, answer_kind, group_id, benchmark_fields FROM factual_qas WHERE chart_id = ? ORDER BY source DESC, id')
    .all(chartId) as { id: number; chart_id: number; query: string; label: string; source: string; answer_kind: string; group_id: number | null; benchmark_fields: string | null }[];
  return rows.map((row) => ({
    ...row,
    source: QaSourceSchema.parse(row.source),
    answer_kind: AnswerKindSchema.parse(row.answer_kind),
    benchmark_fields: row.benchmark_fields === null ? null : parseJsonColumn(QaBenchmarkFieldsSchema, row.benchmark_fields, { table: 'factual_qas', column: 'benchmark_fields', id: row.id }),
  }));
}

/** Sets a type whose source needs no evidence (a curator's, an annotation's): any evidence an inferred type had is cleared. */
export function setChartType(db: Db, id: number, chartType: ChartType, source: TypeSource): boolean {
  const result = statement(db, `UPDATE charts SET chart_type = ?, type_source = ?, type_evidence = NULL, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`)
    .run(chartType, source, id);
  return result.changes > 0;
}

export function countCharts(db: Db): number {
  return (statement(db, 'SELECT COUNT(*) AS n FROM charts').get() as { n: number }).n;
}

/** Write side used by the importer: one chart with its image and questions. */
export interface ChartUpsert {
  split: string;
  imgname: string;
  title: string | null;
  chart_type: ChartType;
  type_source: TypeSource;
  /** What beyond the table decided an inferred type (its questions' words); null otherwise. */
  type_evidence: TypeEvidence | null;
  /**
   * Null: the split publishes the chart's image only (a PNG without a CSV). It is stored without a
   * table, to be extracted or typed in, and a re-import never touches the table it has since got.
   */
  table: DataTable | null;
  annotation: string | null;
  source_file: string;
  content_hash: string;
  image: { png: Buffer; sha256: string } | null;
}

export interface QaInsert {
  query: string;
  label: string;
  source: QaSource;
}

export interface ChartWriteResult {
  outcome: 'created' | 'updated' | 'unchanged';
  qasAdded: number;
  chartId: number;
  tableOrTypeChanged: boolean;
}

interface StoredChart {
  id: number;
  content_hash: string;
  type_source: string;
  type_evidence: string | null;
  chart_type: string;
  data_table: string;
  image_sha: string | null;
}

/**
 * Whether a re-import keeps the stored type over the one it read: a curator's always; a vision
 * model's (a type job's, or the one its table extraction named) over a type the import only
 * inferred from the table, while the image it looked at stays.
 */
function keepsStoredType(existing: StoredChart, chart: ChartUpsert): boolean {
  if (existing.type_source === 'curator') return true;
  const sameImage = chart.image === null || chart.image.sha256 === existing.image_sha;
  const byVision = existing.type_evidence === 'vision' || existing.type_source === 'extracted';
  return byVision && chart.type_source === 'inferred' && chart.type_evidence === null && sameImage;
}

export function createChartWriter(db: Db) {
  const findChart = statement(db, `SELECT c.id, c.content_hash, c.type_source, c.type_evidence, c.chart_type, c.data_table,
      (SELECT i.sha256 FROM chart_images i WHERE i.chart_id = c.id) AS image_sha
    FROM charts c WHERE c.split = ? AND c.imgname = ?`);
  // A ChartQA split publishes its tables: imported and confirmed.
  const insertChart = statement(db, `INSERT INTO charts
    (split, imgname, title, chart_type, type_source, type_evidence, data_table, row_count, series_count, table_source, table_confirmed, annotation, source_file, content_hash)
    VALUES (@split, @imgname, @title, @chart_type, @type_source, @type_evidence, @data_table, @row_count, @series_count, 'imported', 1, @annotation, @source_file, @content_hash)`);
  const updateChart = statement(db, `UPDATE charts SET title = @title,
      chart_type = CASE WHEN @keep_type = 1 THEN chart_type ELSE @chart_type END,
      type_source = CASE WHEN @keep_type = 1 THEN type_source ELSE @type_source END,
      type_evidence = CASE WHEN @keep_type = 1 THEN type_evidence ELSE @type_evidence END,
      data_table = @data_table, row_count = @row_count, series_count = @series_count, table_source = 'imported', table_confirmed = 1, annotation = @annotation,
      source_file = @source_file, content_hash = @content_hash, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE id = @id`);
  // An image-only chart: no table yet (source null, unconfirmed), as the benchmark importers store theirs.
  const insertImageOnly = statement(db, `INSERT INTO charts
    (split, imgname, title, chart_type, type_source, type_evidence, data_table, row_count, series_count, table_source, table_confirmed, annotation, source_file, content_hash)
    VALUES (@split, @imgname, @title, @chart_type, @type_source, @type_evidence, NULL, 0, 0, NULL, 0, @annotation, @source_file, @content_hash)`);
  const updateImageOnly = statement(db, `UPDATE charts SET title = @title,
      chart_type = CASE WHEN @keep_type = 1 THEN chart_type ELSE @chart_type END,
      type_source = CASE WHEN @keep_type = 1 THEN type_source ELSE @type_source END,
      type_evidence = CASE WHEN @keep_type = 1 THEN type_evidence ELSE @type_evidence END,
      annotation = @annotation, source_file = @source_file, content_hash = @content_hash, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE id = @id`);
  const upsertImage = statement(db, `INSERT INTO chart_images (chart_id, png, sha256) VALUES (?, ?, ?)
    ON CONFLICT (chart_id) DO UPDATE SET png = excluded.png, sha256 = excluded.sha256`);
  const insertQa = statement(db, 'INSERT OR IGNORE INTO factual_qas (chart_id, query, label, source, answer_kind) VALUES (?, ?, ?, ?, ?)');
  const refreshInferredType = statement(db, `UPDATE charts SET chart_type = @chart_type, type_evidence = @type_evidence, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE id = @id AND type_source = 'inferred' AND (chart_type <> @chart_type OR type_evidence IS NOT @type_evidence)`);

  /**
   * Returns what happened to the chart and how many questions were new. One transaction.
   * `tableOrTypeChanged`: an update changed what its items were verified against (the data
   * table, or a type the curator did not set), so they need verifying again.
   */
  const write = db.transaction((chart: ChartUpsert, qas: QaInsert[]): ChartWriteResult => {
    const existing = findChart.get(chart.split, chart.imgname) as StoredChart | undefined;
    const values = {
      split: chart.split,
      imgname: chart.imgname,
      title: chart.title,
      chart_type: chart.chart_type,
      type_source: chart.type_source,
      type_evidence: chart.type_evidence,
      data_table: chart.table === null ? null : JSON.stringify(chart.table),
      row_count: chart.table?.rows.length ?? 0,
      series_count: chart.table?.series.length ?? 0,
      annotation: chart.annotation,
      source_file: chart.source_file,
      content_hash: chart.content_hash,
    };
    let chartId: number;
    let outcome: ChartWriteResult['outcome'];
    let tableOrTypeChanged = false;
    const imageOnly = chart.table === null;
    if (!existing) {
      chartId = Number((imageOnly ? insertImageOnly : insertChart).run(values).lastInsertRowid);
      outcome = 'created';
    } else if (existing.content_hash !== chart.content_hash) {
      chartId = existing.id;
      const keepType = keepsStoredType(existing, chart);
      (imageOnly ? updateImageOnly : updateChart).run({ ...values, id: chartId, keep_type: keepType ? 1 : 0 });
      outcome = 'updated';
      tableOrTypeChanged = (!imageOnly && existing.data_table !== values.data_table) || (!keepType && existing.chart_type !== chart.chart_type);
    } else {
      chartId = existing.id;
      // Unchanged files can still decide another inferred type (the rule reads the questions too).
      const refreshed = chart.type_source === 'inferred' && !keepsStoredType(existing, chart) && refreshInferredType.run({ id: chartId, chart_type: chart.chart_type, type_evidence: chart.type_evidence }).changes > 0;
      outcome = refreshed ? 'updated' : 'unchanged';
      tableOrTypeChanged = refreshed && existing.chart_type !== chart.chart_type;
    }
    if (chart.image && outcome !== 'unchanged') upsertImage.run(chartId, chart.image.png, chart.image.sha256);
    let qasAdded = 0;
    for (const qa of qas) qasAdded += insertQa.run(chartId, qa.query, qa.label, qa.source, numberOrText(qa.label)).changes;
    return { outcome, qasAdded, chartId, tableOrTypeChanged };
  });
  return { write };
}

/** A group whose every chart has a table: a multi-chart item is computed over all of them. */
function groupWithTables(db: Db, groupId: number): NonNullable<QaWithChart['group']> {
  const group = loadChartGroup(db, groupId);
  if (!group) throw new Error(`chart group ${groupId} does not exist`);
  const charts = group.members.map((member) => {
    if (member.table === null) throw new ChartWithoutTableError(member.id, `${member.split}/${member.imgname}`);
    return { ...member, table: member.table };
  });
  return { id: group.id, name: group.name, charts };
}

/** A factual QA with what generation and verification need of its chart (and of its group's, for a question over several). */
export interface QaWithChart {
  qa: FactualQa;
  /** The question's chart; for a question over a group, the group's first chart. */
  chart: { id: number; imgname: string; split: string; chart_type: ChartType; title: string | null; table: DataTable };
  /** The group a multi-chart question spans, every member with its table; null for one chart. */
  group: { id: number; name: string; charts: (Omit<GroupMember, 'table'> & { table: DataTable })[] } | null;
}

export function getQaWithChart(db: Db, qaId: number): QaWithChart | null {
  const row = statement(db,
      `SELECT q.id, q.chart_id, q.query, q.label, q.source, q.group_id, c.imgname, c.split, c.chart_type, c.title, c.data_table
       FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE q.id = ?`,
    )
    .get(qaId) as
    | { id: number; chart_id: number; query: string; label: string; source: string; group_id: number | null; imgname: string; split: string; chart_type: string; title: string | null; data_table: string | null }
    | undefined;
  if (!row) return null;
  // Generation and verification compute over the table; callers check chartTableOfQa first.
  if (row.data_table === null) throw new ChartWithoutTableError(row.chart_id, `${row.split}/${row.imgname}`);
  return {
    group: row.group_id === null ? null : groupWithTables(db, row.group_id),
    qa: { id: row.id, chart_id: row.chart_id, query: row.query, label: row.label, source: QaSourceSchema.parse(row.source) },
    chart: {
      id: row.chart_id,
      imgname: row.imgname,
      split: row.split,
      chart_type: ChartTypeSchema.parse(row.chart_type),
      title: row.title,
      table: parseStoredTable(row.data_table, row.chart_id),
    },
  };
}
