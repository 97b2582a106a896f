import type { DataTable } from '../table/model';

/**
 * The most cells (rows × series) a table may have to be drawn as a chart, on the server (PNG)
 * and in the browser. ChartQA's largest tables hold under 100 cells; this is twenty times that,
 * drawn in about a second. Past it a drawing shows nothing a reader can use — on 800 pixels each
 * mark gets under half a pixel — while its cost grows with every mark: a 1000 × 200 table held a
 * render thread for 14 s, stalling every chart image queued behind it.
 */
export const MAX_DRAWN_CELLS = 2_000;

/** A table's size as the limit counts it. */
export interface TableSize {
  rows: number;
  series: number;
  cells: number;
}

/** The table's size when it is past MAX_DRAWN_CELLS; null when it may be drawn. */
export function tooLargeToDraw(table: DataTable): TableSize | null {
  const size = { rows: table.rows.length, series: table.series.length, cells: table.rows.length * table.series.length };
  return size.cells > MAX_DRAWN_CELLS ? size : null;
}

/** Why `what` (a chart, "the edited table") is not drawn, naming its size and the limit. */
export function tooLargeToDrawMessage(what: string, size: TableSize): string {
  return `${what} is not drawn: its table has ${size.rows} rows × ${size.series} series = ${size.cells} cells, over the ${MAX_DRAWN_CELLS} cells a chart can show`;
}
