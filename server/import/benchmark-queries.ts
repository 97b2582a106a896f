import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { AnswerKind, ChartBenchmarkFields, QaBenchmarkFields } from '../../shared/domain/benchmark-fields';
import type { ChartType, TypeSource } from '../../shared/domain/chart-types';
import type { QaSource } from '../../shared/domain/qa';

/**
 * SQL of the benchmark importers (MultiChartQA, ChartBench, CharXiv): charts known by their
 * image and questions only, their groups, and their questions with the benchmark's fields.
 * A re-import never touches a chart's table: one extracted or typed in by a curator stays.
 */

export interface BenchmarkChartUpsert {
  split: string;
  imgname: string;
  chart_type: ChartType;
  type_source: TypeSource;
  /** The image the benchmark names, relative to its image folder. */
  image_ref: string;
  fields: ChartBenchmarkFields;
  source_file: string;
  /** Covers what the importer writes besides the image (which is compared by its own hash). */
  content_hash: string;
  image: { png: Buffer; sha256: string } | null;
}

export interface BenchmarkQaInsert {
  query: string;
  label: string;
  source: QaSource;
  answer_kind: AnswerKind;
  external_id: string;
  group_id: number | null;
  fields: QaBenchmarkFields;
}

export type QaWriteOutcome = 'added' | 'unchanged' | 'differs';

/**
 * The stored type a re-import keeps: a curator's, or one a vision model read from the image (its
 * type answer, or the type its table extraction named) over an inferred default.
 */
const KEEPS_TYPE = "(type_source = 'curator' OR ((type_evidence = 'vision' OR type_source = 'extracted') AND @type_source = 'inferred'))";

export function createBenchmarkWriter(db: Db) {
  const findChart = statement(db, `SELECT c.id, c.content_hash, (SELECT i.sha256 FROM chart_images i WHERE i.chart_id = c.id) AS image_sha
    FROM charts c WHERE c.split = ? AND c.imgname = ?`);
  const insertChart = statement(db, `INSERT INTO charts
    (split, imgname, title, chart_type, type_source, data_table, row_count, series_count, table_source, table_confirmed, image_ref, benchmark_fields, source_file, content_hash)
    VALUES (@split, @imgname, NULL, @chart_type, @type_source, NULL, 0, 0, NULL, 0, @image_ref, @benchmark_fields, @source_file, @content_hash)`);
  // A curator's type is a human decision, and a vision model's answer read the image a default
  // type only guesses at: a re-import keeps both (as the ChartQA importer does).
  const updateChart = statement(db, `UPDATE charts SET
      chart_type = CASE WHEN ${KEEPS_TYPE} THEN chart_type ELSE @chart_type END,
      type_evidence = CASE WHEN ${KEEPS_TYPE} THEN type_evidence ELSE NULL END,
      type_source = CASE WHEN ${KEEPS_TYPE} THEN type_source ELSE @type_source END,
      image_ref = @image_ref, benchmark_fields = @benchmark_fields, source_file = @source_file, content_hash = @content_hash,
      updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE id = @id`);
  const touchChart = statement(db, `UPDATE charts SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`);
  const upsertImage = statement(db, `INSERT INTO chart_images (chart_id, png, sha256) VALUES (?, ?, ?)
    ON CONFLICT (chart_id) DO UPDATE SET png = excluded.png, sha256 = excluded.sha256`);
  const findQa = statement(db, 'SELECT query, label, answer_kind, group_id, benchmark_fields FROM factual_qas WHERE chart_id = ? AND source = ? AND external_id = ?');
  const insertQa = statement(db, `INSERT INTO factual_qas (chart_id, query, label, source, answer_kind, group_id, external_id, benchmark_fields)
    VALUES (@chart_id, @query, @label, @source, @answer_kind, @group_id, @external_id, @benchmark_fields)`);
  const findGroup = statement(db, 'SELECT id FROM chart_groups WHERE split = ? AND group_key = ?');
  const insertGroup = statement(db, 'INSERT INTO chart_groups (split, group_key, name, source) VALUES (?, ?, ?, ?)');
  const groupMembers = statement(db, 'SELECT chart_id FROM chart_group_members WHERE group_id = ? ORDER BY position');
  const clearMembers = statement(db, 'DELETE FROM chart_group_members WHERE group_id = ?');
  const insertMember = statement(db, 'INSERT INTO chart_group_members (group_id, chart_id, position) VALUES (?, ?, ?)');

  /** Creates or updates one chart (never its table); an image is written only when given and new. */
  const writeChart = (chart: BenchmarkChartUpsert): { chartId: number; outcome: 'created' | 'updated' | 'unchanged' } => {
    const existing = findChart.get(chart.split, chart.imgname) as { id: number; content_hash: string; image_sha: string | null } | undefined;
    const values = {
      split: chart.split,
      imgname: chart.imgname,
      chart_type: chart.chart_type,
      type_source: chart.type_source,
      image_ref: chart.image_ref,
      benchmark_fields: JSON.stringify(chart.fields),
      source_file: chart.source_file,
      content_hash: chart.content_hash,
    };
    let chartId: number;
    let outcome: 'created' | 'updated' | 'unchanged';
    if (!existing) {
      chartId = Number(insertChart.run(values).lastInsertRowid);
      outcome = 'created';
    } else {
      chartId = existing.id;
      outcome = existing.content_hash === chart.content_hash ? 'unchanged' : 'updated';
      if (outcome === 'updated') updateChart.run({ ...values, id: chartId });
    }
    // An import without the images keeps the ones stored before; a new or changed image is written.
    if (chart.image && chart.image.sha256 !== existing?.image_sha) {
      upsertImage.run(chartId, chart.image.png, chart.image.sha256);
      if (outcome === 'unchanged') {
        touchChart.run(chartId);
        outcome = 'updated';
      }
    }
    return { chartId, outcome };
  };

  /**
   * Adds a question unless its record id is already stored on that chart. A stored one that
   * differs is left as it is ('differs'): items may have been written against it.
   */
  const writeQa = (chartId: number, qa: BenchmarkQaInsert): QaWriteOutcome => {
    const fields = JSON.stringify(qa.fields);
    const existing = findQa.get(chartId, qa.source, qa.external_id) as
      | { query: string; label: string; answer_kind: string; group_id: number | null; benchmark_fields: string | null }
      | undefined;
    if (existing) {
      const same = existing.query === qa.query && existing.label === qa.label && existing.answer_kind === qa.answer_kind && existing.group_id === qa.group_id && existing.benchmark_fields === fields;
      return same ? 'unchanged' : 'differs';
    }
    insertQa.run({ chart_id: chartId, query: qa.query, label: qa.label, source: qa.source, answer_kind: qa.answer_kind, group_id: qa.group_id, external_id: qa.external_id, benchmark_fields: fields });
    return 'added';
  };

  /** The group of these charts in this order (positions 1..n), created when new. */
  const writeGroup = (group: { split: string; key: string; name: string; source: 'multichartqa' | 'curator'; chartIds: number[] }): { groupId: number; created: boolean } => {
    const existing = findGroup.get(group.split, group.key) as { id: number } | undefined;
    const groupId = existing ? existing.id : Number(insertGroup.run(group.split, group.key, group.name, group.source).lastInsertRowid);
    const members = existing ? (groupMembers.all(groupId) as { chart_id: number }[]).map((m) => m.chart_id) : [];
    if (members.join(',') !== group.chartIds.join(',')) {
      clearMembers.run(groupId);
      group.chartIds.forEach((chartId, index) => insertMember.run(groupId, chartId, index + 1));
    }
    return { groupId, created: !existing };
  };

  return { writeChart, writeQa, writeGroup };
}
