import { immediateTransaction } from '../../db/transactions';
import { getChartSummary } from '../charts/chart-queries';
import type { DomainEventEmitter } from '../events/event-bus';
import type { Db } from '../../db/database';
import { editedOverStored, type ChartTable, type EditedTable, type SaveTableResponse } from '../../shared/api/tables';
import type { DataTable } from '../../shared/table/model';
import type { ExtractedTable } from '../../shared/table-provenance/extracted-table';
import { getChartImage } from '../charts/chart-queries';
import { DomainError } from '../domain-error';
import { reverifyChartItems, NOTHING_REVERIFIED, type ReverifyCounts } from '../review/chart-reverify';
import { providersFor, type ModelEnv } from '../llm/model-roles';
import { visionOptions } from '../llm/vision-image';
import { getSettings } from '../settings/settings-queries';
import { createTableExtractor, type ExtractionResult, type TableExtractor } from './extract-table';
import { confirmChartTable, getChartTable, storeChartTable, storeExtractedType, unconfirmChartTable, type ChartToExtract } from './table-queries';

/**
 * A chart's table as extraction and curators change it. Each write is one transaction in which
 * the chart's items are verified again on the new table (those whose answer changed go back to
 * review), as a re-import does.
 */

/** Why a table could not be read, stored or confirmed; the message names the chart. A missing chart is `not_found`, any other reason a conflict with the chart's state. */
export class ChartTableError extends DomainError {
  constructor(
    message: string,
    readonly reason: 'not_found' | 'no_image' | 'no_endpoint' | 'kept' | 'failed' | 'nothing_to_confirm',
  ) {
    super(reason === 'not_found' ? 'not_found' : 'conflict', message);
  }
}

function tableOf(db: Db, chartId: number): ChartTable {
  const table = getChartTable(db, chartId);
  if (!table) throw new ChartTableError(`chart ${chartId} not found`, 'not_found');
  return table;
}

/**
 * The extractor of the extraction role, or an error saying what is missing. `model`: the one a
 * stored job was planned with, so a job resumed after the setting changed still asks its model.
 */
export function extractorFor(db: Db, env: ModelEnv, model?: string): TableExtractor {
  const settings = getSettings(db);
  const extraction = providersFor(settings, env).extraction;
  if (!extraction.connection || !extraction.model) {
    throw new ChartTableError('table extraction needs a vision model: set OPENAI_API_KEY (and OPENAI_BASE_URL for an endpoint other than OpenAI); the extraction_model setting names the model', 'no_endpoint');
  }
  return createTableExtractor({ db, connection: extraction.connection, model: model ?? extraction.model, image: visionOptions(settings) });
}

/** A table an extraction may replace: none yet, or an extraction no one confirmed. */
export const replaceable = (table: ChartTable) => table.data_table === null || (table.table_source === 'extracted' && !table.table_confirmed);

/**
 * Stores an extracted table (source `extracted`, unconfirmed) unless a table was stored
 * meanwhile that an extraction must keep (imported, typed in by a curator, or confirmed). The
 * type the model named becomes the chart's (source `extracted`, confirmed with the table)
 * unless an annotation or a curator decided it.
 */
export function storeExtractedTable(db: Db, chartId: number, extracted: ExtractedTable, events?: DomainEventEmitter): ReverifyCounts {
  return immediateTransaction(db, () => {
    const current = tableOf(db, chartId);
    if (!replaceable(current)) {
      throw new ChartTableError(`chart ${chartId}: its ${current.table_confirmed ? 'confirmed' : current.table_source} table is kept; an extraction replaces only a missing or unconfirmed extracted one`, 'kept');
    }
    storeChartTable(db, chartId, { table: extracted.table, source: 'extracted', confirmed: false, title: extracted.title, setTitle: false });
    if (extracted.chartType) storeExtractedType(db, chartId, extracted.chartType);
    if (events) announceChart(db, events, chartId);
    return current.data_table === null ? NOTHING_REVERIFIED : reverifyChartItems(db, chartId);
  });
}

/**
 * Reads one chart's table from its stored image and stores it; a failure is `ok: false` with its
 * reason. Given `events`, open pages are told of the chart (a job tells them of its progress instead).
 */
export async function extractChart(db: Db, extractor: TableExtractor, chart: ChartToExtract, signal?: AbortSignal, events?: DomainEventEmitter): Promise<ExtractionResult> {
  const image = getChartImage(db, chart.id);
  if (!image) throw new ChartTableError(`chart ${chart.id} (${chart.name}) has no stored image to read a table from`, 'no_image');
  const result = await extractor.extract({ id: chart.id, chart_type: chart.chart_type, type_known: chart.type_known, image: image.png }, signal);
  if (result.ok) storeExtractedTable(db, chart.id, result.value, events);
  return result;
}

/** Other clients' chart lists and pages refetch the chart whose table changed (after the write commits). */
function announceChart(db: Db, events: DomainEventEmitter, chartId: number): void {
  const chart = getChartSummary(db, chartId);
  if (chart) events.emit('chart.updated', { chart });
}

const sameTable = (a: ChartTable, table: DataTable, title: string | null) =>
  a.data_table !== null && JSON.stringify(a.data_table) === JSON.stringify(table) && (a.title ?? null) === title;

/**
 * A curator's table: stored and confirmed. Its source becomes `curator` when it differs from the
 * stored table (or title); a table saved unchanged keeps its source and is confirmed as it is.
 * Audited in the same transaction, with what the table was before.
 */
export function saveCuratorTable(db: Db, events: DomainEventEmitter, chartId: number, edited: EditedTable, actorId: number | null): SaveTableResponse {
  const title = edited.title === null || edited.title.trim() === '' ? null : edited.title.trim();
  const counts = immediateTransaction(db, () => {
    const current = tableOf(db, chartId);
    const table = editedOverStored(current.data_table, edited);
    const changed = !sameTable(current, table, title);
    const source = changed || current.table_source === null ? 'curator' : current.table_source;
    storeChartTable(db, chartId, { table, source, confirmed: true, title, setTitle: true });
    const reverified = changed && current.data_table !== null ? reverifyChartItems(db, chartId) : NOTHING_REVERIFIED;
    events.emit('chart.table_saved', {
      actor_id: actorId,
      chart_id: chartId,
      changed,
      source,
      was: { source: current.table_source, confirmed: current.table_confirmed },
      rows: table.rows.length,
      series: table.series.length,
      reverified,
    });
    announceChart(db, events, chartId);
    return reverified;
  });
  return { table: tableOf(db, chartId), ...counts };
}

/** A curator vouches for the stored table as it is; audited when it was not confirmed yet. */
export function confirmTable(db: Db, events: DomainEventEmitter, chartId: number, actorId: number | null): SaveTableResponse {
  immediateTransaction(db, () => {
    const current = tableOf(db, chartId);
    if (current.data_table === null) throw new ChartTableError(`chart ${chartId} has no table to confirm: extract one or type it in first`, 'nothing_to_confirm');
    if (confirmChartTable(db, chartId)) events.emit('chart.table_confirmed', { actor_id: actorId, chart_id: chartId, source: current.table_source });
    announceChart(db, events, chartId);
  });
  return { table: tableOf(db, chartId), ...NOTHING_REVERIFIED };
}

/**
 * A curator takes back a confirmation: the table stays as it is, unconfirmed, so generation
 * verifies nothing on it until someone confirms it again (its items already stored stay). An
 * unconfirmed extraction may be read again by a forced extraction. Audited when it was confirmed.
 */
export function unconfirmTable(db: Db, events: DomainEventEmitter, chartId: number, actorId: number | null): SaveTableResponse {
  immediateTransaction(db, () => {
    const current = tableOf(db, chartId);
    if (current.data_table === null) throw new ChartTableError(`chart ${chartId} has no table to set back to unconfirmed`, 'nothing_to_confirm');
    if (unconfirmChartTable(db, chartId)) events.emit('chart.table_unconfirmed', { actor_id: actorId, chart_id: chartId, source: current.table_source });
    announceChart(db, events, chartId);
  });
  return { table: tableOf(db, chartId), ...NOTHING_REVERIFIED };
}
