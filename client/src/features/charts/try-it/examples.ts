import type { DataTable } from '@shared/table/model';

/** Snippets a click puts into a field, written with the chart's own labels so they run as they are. */
export interface TryItExamples {
  edits: string[];
  programs: string[];
}

/** A program string literal: the language's strings take a backslash before any character. */
export function programString(label: string): string {
  return `"${label.replace(/[\\"]/g, '\\$&')}"`;
}

export function buildExamples(table: DataTable): TryItExamples {
  const rows = table.rows.map((row) => row.label);
  const [firstRow, secondRow] = rows;
  const lastRow = rows.at(-1);
  const [firstSeries = '', secondSeries] = table.series;
  const single = table.series.length === 1;
  // A single-series table lets programs and edits leave the series out, as questions about it do.
  const seriesArg = single ? '' : `, ${programString(firstSeries)}`;
  const seriesList = single ? 'series()' : `series(${programString(firstSeries)})`;

  const programs: string[] = [];
  if (firstRow !== undefined) programs.push(`value(${programString(firstRow)}${seriesArg})`);
  programs.push(`argmax(${seriesList})`, `avg(${seriesList})`);
  if (firstRow !== undefined && secondRow !== undefined) {
    programs.push(`diff(value(${programString(firstRow)}${seriesArg}), value(${programString(secondRow)}${seriesArg}))`);
  }
  if (!single && firstRow !== undefined) programs.push(`argmax(row(${programString(firstRow)}))`);

  const edits: unknown[][] = [];
  if (firstRow !== undefined) edits.push([{ op: 'scale', row: firstRow, factor: 2 }]);
  if (firstRow !== undefined && secondRow !== undefined) edits.push([{ op: 'swap', rows: [firstRow, secondRow] }]);
  if (lastRow !== undefined && rows.length > 1) edits.push([{ op: 'remove_row', row: lastRow }]);
  if (secondSeries !== undefined) edits.push([{ op: 'remove_series', series: table.series.at(-1) }]);
  // Labels go through JSON.stringify, so quotes and backslashes in them stay valid JSON.
  return { edits: edits.map((edit) => JSON.stringify(edit)), programs };
}
