import { parseJsonColumn } from '../../db/json-column';
import { drawingStyleFromAnnotation, withTableReading, type DrawingStyle } from '../../shared/chart-spec/drawing-style';
import { DataTableSchema, type DataTable } from '../../shared/table/model';

/**
 * A chart's stored columns read back: its data table and the drawing style its annotation
 * gives. Apart from the queries, so the parsed-chart cache and the queries both read them
 * without importing each other.
 */

export function parseStoredTable(json: string, chartId: number): DataTable {
  return parseJsonColumn(DataTableSchema, json, { table: 'charts', column: 'data_table', id: chartId });
}

/**
 * The colours, series order and bar orientation the stored annotation gives the drawing, with
 * the orientation, stacking and units an extraction read into the table. The annotation was
 * validated as JSON at import; a file that no longer parses draws in the palette's colours.
 */
export function storedDrawingStyle(annotation: string | null, table: DataTable): DrawingStyle | null {
  return withTableReading(annotationStyle(annotation, table), table);
}

function annotationStyle(annotation: string | null, table: DataTable): DrawingStyle | null {
  if (annotation === null) return null;
  try {
    return drawingStyleFromAnnotation(JSON.parse(annotation), table);
  } catch {
    return null;
  }
}
