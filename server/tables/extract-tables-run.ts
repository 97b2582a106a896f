import type { Db } from '../../db/database';
import type { TableExtractor } from './extract-table';
import { ChartTableError, extractChart } from './table-service';
import { chartsSkipped, chartsToExtract, type ExtractionScope } from './table-queries';
import { eachBounded } from '../jobs/bounded';

/**
 * An extraction run over the charts in scope that have no table (with `force`, unconfirmed
 * extractions too). Each chart's table is stored as soon as it is read, so an interrupted run
 * loses nothing: the next run skips what was stored and asks only for the rest, failed charts
 * included. Retries of a request are the transport's (`max_retries`, `retry-after` honoured).
 */

export interface ExtractionFailure {
  chart_id: number;
  chart: string;
  kind: string;
  reason: string;
}

export interface ExtractionReport {
  model: string;
  /** Charts asked for in this run. */
  charts: number;
  extracted: number;
  failed: ExtractionFailure[];
  /** In scope but left alone: a table to keep (imported, a curator's, confirmed, or extracted already without --force). */
  skipped_with_table: number;
  /** In scope without a table and without an image to read one from. */
  skipped_without_image: number;
  /** Requests made, retries and repair turns included. */
  attempts: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  /** False when the model is not in the price table: `cost` is then 0, not "free". */
  priced: boolean;
  /**
   * Of the prompt tokens, those the images took by the model family's formula (server/llm/image-tokens.ts),
   * each image counted once per request; null when the model's family is unknown.
   */
  image_tokens: number | null;
  /** Their cost at the model's input price; null when unpriced or not estimated. */
  image_cost: number | null;
  cancelled: boolean;
}

export interface ExtractionRunOptions {
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export async function runTableExtraction(db: Db, extractor: TableExtractor, scope: ExtractionScope, options: ExtractionRunOptions = {}): Promise<ExtractionReport> {
  const charts = chartsToExtract(db, scope);
  const skipped = chartsSkipped(db, scope);
  const report: ExtractionReport = {
    model: extractor.model,
    charts: charts.length,
    extracted: 0,
    failed: [],
    skipped_with_table: skipped.with_table,
    skipped_without_image: skipped.without_image,
    attempts: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    cost: 0,
    priced: true,
    image_tokens: 0,
    image_cost: 0,
    cancelled: false,
  };
  let done = 0;
  options.onProgress?.(0, charts.length);
  const extractOne = async (chart: (typeof charts)[number]) => {
    if (options.signal?.aborted) {
      report.cancelled = true;
      return;
    }
    try {
      const result = await extractChart(db, extractor, chart, options.signal);
      report.attempts += result.attempts;
      report.prompt_tokens += result.usage.prompt_tokens;
      report.completion_tokens += result.usage.completion_tokens;
      report.cost += result.usage.cost;
      report.priced &&= result.usage.priced;
      report.image_tokens = result.image.tokens === null || report.image_tokens === null ? null : report.image_tokens + result.image.tokens * result.attempts;
      report.image_cost = result.image.cost === null || report.image_cost === null ? null : report.image_cost + result.image.cost * result.attempts;
      if (result.ok) report.extracted += 1;
      else if (result.kind === 'cancelled') report.cancelled = true;
      else report.failed.push({ chart_id: chart.id, chart: chart.name, kind: result.kind, reason: result.reason });
    } catch (error) {
      // A table stored meanwhile (a curator's) is kept: that chart is named, the run goes on.
      if (!(error instanceof ChartTableError)) throw error;
      report.failed.push({ chart_id: chart.id, chart: chart.name, kind: error.reason, reason: error.message });
    }
    done += 1;
    options.onProgress?.(done, charts.length);
  };
  await eachBounded(charts, options.concurrency ?? 4, extractOne);
  return report;
}
