/**
 * The SQL of a chart's table state (shared/table-provenance/table-state.ts), for the chart aliased
 * `alias`: items, the items list's filter and the export derive it alike.
 */
export function tableStateSql(alias: string): string {
  return `CASE WHEN ${alias}.data_table IS NULL THEN 'none' WHEN ${alias}.table_confirmed = 1 THEN 'confirmed' ELSE 'unconfirmed' END`;
}
