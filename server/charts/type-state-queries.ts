/**
 * The SQL of a chart's type state (migration 028), for the chart aliased `alias`: the chart
 * lists, the triage, the vision jobs and a run's `confirmed_types_only` derive it alike, so a
 * decision (a curator's, a vision model's, a re-import reading the questions) confirms at once
 * everywhere. An inferred type is unconfirmed when nothing beyond the table's shape decided it
 * and the chart has a stored image it could disagree with; a chart without one is drawn from its
 * table in its stored type.
 */
export function typeUnconfirmedSql(alias: string): string {
  // A type the table's extraction named (migration 034) stands or falls with that table: curators confirm both at once.
  return `((${alias}.type_source = 'inferred' AND ${alias}.type_evidence IS NULL AND EXISTS (SELECT 1 FROM chart_images ti WHERE ti.chart_id = ${alias}.id))
    OR (${alias}.type_source = 'extracted' AND ${alias}.table_confirmed = 0))`;
}

/** 1 when the chart's type is confirmed, else 0 (see `typeUnconfirmedSql`). */
export function typeConfirmedSql(alias: string): string {
  return `(NOT ${typeUnconfirmedSql(alias)})`;
}
