import { unverifiableColours, type DrawingStyle } from '../../shared/chart-spec/drawing-style';
import type { DataTable } from '../../shared/table/model';
import { parseStoredTable, storedDrawingStyle } from './stored-chart';
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


/** Per parsed table (so per stored text of a chart): the colour check's answers by the texts asked about. */
const colourChecks = new WeakMap<DataTable, Map<string, readonly string[]>>();
const MAX_COLOUR_CHECKS_PER_CHART = 500;

/**
 * `unverifiableColours` for a chart parsed here, remembered: a claim asked it of the same
 * question and table every time an item was served (a regular expression per table label that
 * the question names), a fiftieth of a claim's time. Keyed by the parsed table, which stands for
 * the chart's stored table and annotation (an edit parses anew), and by the texts checked.
 */
export function cachedUnverifiableColours(questions: readonly string[], table: DataTable, chart: { has_image: boolean; style: DrawingStyle | null }): readonly string[] {
  let byTexts = colourChecks.get(table);
  if (byTexts === undefined) {
    byTexts = new Map();
    colourChecks.set(table, byTexts);
  }
  const key = `${chart.has_image ? 1 : 0}\u0000${questions.join('\u0000')}`;
  const known = byTexts.get(key);
  if (known !== undefined) return known;
  const found = Object.freeze(unverifiableColours(questions, table, chart));
  if (byTexts.size >= MAX_COLOUR_CHECKS_PER_CHART) byTexts.delete(byTexts.keys().next().value as string);
  byTexts.set(key, found);
  return found;
}
