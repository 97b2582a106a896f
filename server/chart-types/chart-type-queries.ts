import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { TriageChart, TypeStateCounts } from '../../shared/api/chart-types';
import { ChartTypeSchema, TypeEvidenceSchema, TypeSourceSchema, type ChartType, type TypeEvidence, type TypeSource } from '../../shared/domain/chart-types';
import { typeUnconfirmedSql } from '../charts/type-state-queries';

/** All SQL of chart types as the triage, curators' decisions and the vision model write them (charts.chart_type, type_source, type_evidence). */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** How a chart's type stands: what a decision changes, an audit entry records and an undo puts back. */
export interface ChartTypeState {
  chart_type: ChartType;
  type_source: TypeSource;
  type_evidence: TypeEvidence | null;
}

export function chartTypeState(db: Db, chartId: number): (ChartTypeState & { name: string; has_table: boolean }) | null {
  const row = statement(db, `SELECT split || '/' || imgname AS name, chart_type, type_source, type_evidence, data_table IS NOT NULL AS has_table FROM charts WHERE id = ?`).get(chartId) as
    | { name: string; chart_type: string; type_source: string; type_evidence: string | null; has_table: number }
    | undefined;
  if (!row) return null;
  return {
    name: row.name,
    has_table: row.has_table === 1,
    chart_type: ChartTypeSchema.parse(row.chart_type),
    type_source: TypeSourceSchema.parse(row.type_source),
    type_evidence: row.type_evidence === null ? null : TypeEvidenceSchema.parse(row.type_evidence),
  };
}

/**
 * Sets the chart's type state if it is still `expected` (compare-and-set: an undo never puts back
 * a type over a decision made since); whether it did. Without `expected`, always.
 */
export function setChartTypeState(db: Db, chartId: number, to: ChartTypeState, expected?: ChartTypeState): boolean {
  const guard = expected ? 'AND chart_type = @was_type AND type_source = @was_source AND type_evidence IS @was_evidence' : '';
  return (
    statement(db, `UPDATE charts SET chart_type = @chart_type, type_source = @type_source, type_evidence = @type_evidence, updated_at = ${NOW} WHERE id = @id ${guard}`).run({
      id: chartId,
      ...to,
      ...(expected ? { was_type: expected.chart_type, was_source: expected.type_source, was_evidence: expected.type_evidence } : {}),
    }).changes === 1
  );
}

/**
 * Stores a vision model's answer if the chart's type is still an unconfirmed inferred one (a
 * curator may have decided it during the call, or an extraction named it: that one waits for its table's confirmation); whether it did.
 */
export function storeVisionType(db: Db, chartId: number, chartType: ChartType): boolean {
  return (
    statement(db, `UPDATE charts SET chart_type = @chart_type, type_evidence = 'vision', updated_at = ${NOW} WHERE id = @id AND type_source = 'inferred' AND ${typeUnconfirmedSql('charts')}`).run({
      id: chartId,
      chart_type: chartType,
    }).changes === 1
  );
}

const scope = (split: string | undefined) => ({ split: split ?? null });

/** The split's unconfirmed inferred charts (every split's without one), lowest id first: what a vision job asks about (an extracted type is confirmed with its table). */
export function unconfirmedCharts(db: Db, split: string | undefined): { id: number; name: string }[] {
  return statement(db, `SELECT c.id, c.split || '/' || c.imgname AS name FROM charts c WHERE (@split IS NULL OR c.split = @split) AND c.type_source = 'inferred' AND ${typeUnconfirmedSql('c')} ORDER BY c.id`).all(scope(split)) as {
    id: number;
    name: string;
  }[];
}

/** The next unconfirmed charts to triage, with why a vision model left each undecided (its latest failed task). */
export function triageCharts(db: Db, split: string | undefined, limit: number): TriageChart[] {
  const rows = statement(
    db,
    `SELECT c.id, c.split, c.imgname, c.title, c.chart_type, c.row_count AS rows, c.series_count AS series,
       (SELECT COUNT(*) FROM factual_qas q WHERE q.chart_id = c.id) AS qa_count,
       (SELECT t.kind || ': ' || COALESCE(t.error, '') FROM chart_type_tasks t WHERE t.chart_id = c.id AND t.status = 'failed'
        ORDER BY t.updated_at DESC, t.job_id DESC LIMIT 1) AS vision_failure
     FROM charts c WHERE (@split IS NULL OR c.split = @split) AND ${typeUnconfirmedSql('c')}
     ORDER BY c.id LIMIT @limit`,
  ).all({ ...scope(split), limit }) as (Omit<TriageChart, 'chart_type'> & { chart_type: string })[];
  return rows.map((row) => ({ ...row, chart_type: ChartTypeSchema.parse(row.chart_type) }));
}

/** Charts with an image in scope, by how their type stands. */
export function typeStateCounts(db: Db, split: string | undefined): TypeStateCounts {
  return statement(
    db,
    `SELECT COALESCE(SUM(${typeUnconfirmedSql('c')}), 0) AS unconfirmed,
       COALESCE(SUM(c.type_source = 'annotation'), 0) AS annotation,
       COALESCE(SUM(c.type_source = 'inferred' AND c.type_evidence = 'questions'), 0) AS questions,
       COALESCE(SUM(c.type_source = 'inferred' AND c.type_evidence = 'vision'), 0) AS vision,
       COALESCE(SUM(c.type_source = 'curator'), 0) AS curator
     FROM charts c WHERE (@split IS NULL OR c.split = @split) AND EXISTS (SELECT 1 FROM chart_images i WHERE i.chart_id = c.id)`,
  ).get(scope(split)) as TypeStateCounts;
}
