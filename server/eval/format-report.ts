import type { ReportCellSchema, ReportFigure, ReportTable, ScoreReport } from '../../shared/eval/score-report';
import type { z } from 'zod';

/** A ScoreReport as text for the terminal: the title, the figures, each table aligned, the warnings. */
export function formatScoreReport(report: ScoreReport): string {
  const lines = [report.title, ''];
  const width = Math.max(0, ...report.figures.map((figure) => figure.label.length));
  const values = report.figures.map(figureValue);
  const valueWidth = Math.max(0, ...values.map((value) => value.length));
  report.figures.forEach((figure, index) => {
    const note = figure.note === undefined ? '' : `  (${figure.note})`;
    lines.push(`${figure.label.padEnd(width)}  ${(values[index] ?? '').padStart(valueWidth)}${note}`);
  });
  for (const table of report.tables) lines.push('', ...formatTable(table));
  if (report.warnings.length > 0) lines.push('', ...report.warnings.map((warning) => `warning: ${warning}`));
  return `${lines.join('\n')}\n`;
}

function figureValue(figure: ReportFigure): string {
  if (figure.value === null) return '–';
  return figure.unit === 'percent' ? `${figure.value.toFixed(2)}%` : String(figure.value);
}

function cellText(cell: z.infer<typeof ReportCellSchema>): string {
  if (cell === null) return '–';
  return typeof cell === 'number' ? String(cell) : cell;
}

function formatTable(table: ReportTable): string[] {
  const cells = [table.columns, ...table.rows.map((row) => row.map(cellText))];
  const widths = table.columns.map((_c, index) => Math.max(...cells.map((row) => (row[index] ?? '').length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0)))
      .join('  ')
      .trimEnd();
  return [table.title, line(table.columns), ...cells.slice(1).map(line)];
}
