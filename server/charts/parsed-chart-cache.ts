import type { DrawingStyle } from '../../shared/chart-spec/drawing-style';
import type { DataTable } from '../../shared/table/model';
import { parseStoredTable, storedDrawingStyle } from './chart-queries';
import { deepFreeze } from '../deep-freeze';

/**
 * A chart's stored table and drawing style, parsed and validated once while its stored text
 * stays the same. Every review claim and item page loads its chart: parsing the table JSON
 * through its schema and the annotation into a style was most of a claim's item load. An entry
 * is used only when both stored texts equal the ones it was parsed from, so an edit (or another
 * database with the same chart id, as in tests) is never served stale, whatever updated_at says.
 * Bounded, least recently used out first. The parsed values are shared by callers: frozen.
 */
const MAX_CHARTS = 2_000;

interface Entry {
  tableJson: string;
  annotationJson: string | null;
  table: DataTable;
  style: DrawingStyle | null;
}

const entries = new Map<number, Entry>();

export function parsedChart(chartId: number, tableJson: string, annotationJson: string | null): { table: DataTable; style: DrawingStyle | null } {
  const cached = entries.get(chartId);
  if (cached && cached.tableJson === tableJson && cached.annotationJson === annotationJson) {
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    entries.delete(chartId);
    entries.set(chartId, cached);
    return cached;
  }
  const table = deepFreeze(parseStoredTable(tableJson, chartId));
  const entry: Entry = { tableJson, annotationJson, table, style: deepFreeze(storedDrawingStyle(annotationJson, table)) };
  entries.delete(chartId);
  entries.set(chartId, entry);
  if (entries.size > MAX_CHARTS) entries.delete(entries.keys().next().value as number);
  return entry;
}

