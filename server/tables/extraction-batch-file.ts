import type { Db } from '../../db/database';
import { getChartImage, getChartSummary } from '../charts/chart-queries';
import { batchInputLine, mapBatchResults, type BatchInputLine, type BatchLineResult } from '../llm/batch-lines';
import { batchCallCost } from '../llm/cost';
import { structuredBody, validateReply } from '../llm/llm-client';
import { recordLlmCall } from '../llm/llm-call-queries';
import { prepareVisionImage } from '../llm/vision-image';
import { getSettings } from '../settings/settings-queries';
import { EXTRACTION_OUTPUT, EXTRACTION_PURPOSE, extractionRequest, extractionTemplate } from './extract-table';
import { chartsSkipped, chartsToExtract, type ExtractionScope } from './table-queries';
import { ChartTableError, storeExtractedTable } from './table-service';

/**
 * `hqa extract-tables --batch-out FILE` / `--batch-in FILE`: the extraction requests through a
 * file (OpenAI Batch API input, `vllm run-batch`), and the replies read back. A line's body is
 * the request the live path sends first (`extractionRequest` → `structuredBody` in
 * `json_schema` mode); a reply is read and stored as a live one is (`validateReply`,
 * `storeExtractedTable`), except that nothing can answer a repair turn: an invalid reply fails.
 */

/** A custom_id keeps this many characters of the image name: enough to recognise the chart. */
const NAME_CHARS = 48;

/** The custom_id of a chart's request: its id, then its image name's stem (what a reader of the file recognises). */
export function extractionCustomId(chart: { id: number; imgname: string }): string {
  const stem = chart.imgname.replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, NAME_CHARS);
  return `chart-${chart.id}-${stem}`;
}

const CUSTOM_ID = /^chart-(\d+)-/;

export interface ExtractionLines {
  lines: BatchInputLine[];
  model: string;
  skipped_with_table: number;
  skipped_without_image: number;
}

/** One request line per chart the live run would read (same scope), for the `extraction_model` setting. */
export async function extractionBatchLines(db: Db, scope: ExtractionScope): Promise<ExtractionLines> {
  const settings = getSettings(db);
  const model = settings.extraction_model;
  const lines: BatchInputLine[] = [];
  for (const chart of chartsToExtract(db, scope)) {
    const stored = getChartImage(db, chart.id);
    const summary = getChartSummary(db, chart.id);
    // chartsToExtract lists only charts with an image; one deleted meanwhile is left out.
    if (!stored || !summary) continue;
    const image = await prepareVisionImage(stored.png, { maxSide: settings.vision_max_side, detail: settings.vision_detail });
    const request = extractionRequest(chart, image, model);
    lines.push(batchInputLine(extractionCustomId(summary), model, structuredBody(request, 'json_schema')));
  }
  const skipped = chartsSkipped(db, scope);
  return { lines, model, skipped_with_table: skipped.with_table, skipped_without_image: skipped.without_image };
}

export interface ExtractionLineFailure {
  custom_id: string;
  reason: string;
}

export interface ExtractionRepliesReport {
  model: string;
  /** Lines that named a chart of this database. */
  replies: number;
  stored: number;
  failed: ExtractionLineFailure[];
}

/** The chart a custom_id names, if it names one of this database's charts by id and image name both. */
function chartNamed(db: Db, customId: string): number | null {
  const id = Number(CUSTOM_ID.exec(customId)?.[1]);
  if (!Number.isInteger(id)) return null;
  const chart = getChartSummary(db, id);
  return chart && extractionCustomId(chart) === customId ? id : null;
}

/** Records the reply's `llm_calls` row and stores its table; why it stored none, or null when it did. */
function storeReply(db: Db, chartId: number, result: BatchLineResult, model: string, template: { name: string; hash: string }): string | null {
  const settings = getSettings(db);
  const { cost } = result.ok ? batchCallCost(model, result.tokens, settings.price_table, settings.batch_discount) : { cost: 0 };
  // The whole batch took its time, no request alone: latency 0, as recordBatchCall records a batch's calls.
  const call = { run_id: null, task_id: null, eval_run_id: null, purpose: EXTRACTION_PURPOSE, engine: 'openai', model, template: template.name, template_hash: template.hash, attempt: 1, latency_ms: 0, chart_id: chartId };
  if (!result.ok) {
    recordLlmCall(db, { ...call, raw_output: null, prompt_tokens: 0, completion_tokens: 0, cost: 0, outcome: 'error', error: result.error });
    return result.error;
  }
  const base = { ...call, raw_output: result.content ?? result.refusal, ...result.tokens, cost };
  if (result.refusal) {
    recordLlmCall(db, { ...base, outcome: 'refused', error: result.refusal });
    return `refused: ${result.refusal}`;
  }
  const checked = validateReply(result.content, result.finishReason, EXTRACTION_OUTPUT);
  if (!checked.ok) {
    const error = `${checked.kind}: ${checked.error}`;
    recordLlmCall(db, { ...base, outcome: 'invalid', error });
    return `${error} (a live extraction would ask the model once more to repair it; a batch file has no repair turn: write the chart's request again)`;
  }
  recordLlmCall(db, { ...base, outcome: 'ok', error: null });
  try {
    storeExtractedTable(db, chartId, checked.value);
  } catch (error) {
    if (!(error instanceof ChartTableError)) throw error;
    return error.message;
  }
  return null;
}

/**
 * Reads a batch output file (OpenAI's or vLLM's) and stores each reply's table as a live
 * extraction would (extracted, unconfirmed; the model's chart type unless an annotation or a
 * curator decided it), with an `llm_calls` row per line naming the chart, costed at the batch
 * price. Every line is taken alone: an error line, an invalid reply, a chart whose table is
 * kept (confirmed, imported, a curator's) or a custom_id naming no chart here fails, named,
 * and the others are stored. `model`: the one the replies are recorded for.
 */
export function readExtractionReplies(db: Db, file: { source: string; text: string }, model: string): ExtractionRepliesReport {
  // The file says which charts it answers: a first reading collects its ids, all unknown yet.
  const named = mapBatchResults([], [file]).unknown;
  const charts = new Map<string, number>();
  const failed: ExtractionLineFailure[] = [];
  for (const customId of named) {
    const chartId = chartNamed(db, customId);
    if (chartId === null) failed.push({ custom_id: customId, reason: 'names no chart of this database (chart-<id>-<image name>, as --batch-out wrote it)' });
    else charts.set(customId, chartId);
  }
  const { results } = mapBatchResults(charts.keys(), [file]);
  let stored = 0;
  const template = extractionTemplate();
  for (const [customId, result] of results) {
    const chartId = charts.get(customId) as number;
    const reason = storeReply(db, chartId, result, model, template);
    if (reason === null) stored += 1;
    else failed.push({ custom_id: customId, reason });
  }
  return { model, replies: charts.size, stored, failed };
}
