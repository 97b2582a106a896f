import type { Db } from '../../db/database';
import type { ImageDetail } from '../../shared/settings';
import { CHART_TYPE_LABELS, type ChartType } from '../../shared/domain/chart-types';
import { EXTRACTED_TABLE_SCHEMA_NAME, ExtractedTableWireSchema, toExtractedTable, type ExtractedTable, type ExtractedTableWire } from '../../shared/table-provenance/extracted-table';
import { createLlmClient, type LlmRequest, type LlmResult } from '../llm/llm-client';
import { imageTokenEstimate, requestImages } from '../llm/image-tokens';
import type { ModelConnection } from '../llm/provider';
import { prepareVisionImage, type VisionImage, type VisionImageOptions } from '../llm/vision-image';
import type { Sleep } from '../llm/retry';
import { loadTemplate } from '../llm/templates';

/**
 * Reads a chart's data table from its image: the extraction model is shown the image (a base64
 * data URL) and asked, with strict structured output, for title, row labels, series with their
 * units, and values. Each request (retries, the repair turn) is a `llm_calls` row with purpose
 * `extraction` and its cost. A reply that is not a table is shown its error once; a second bad
 * reply fails, named by its reason.
 */

export const EXTRACTION_PURPOSE = 'extraction';

export interface ChartImageInput {
  /** The chart the call is recorded against (`llm_calls.chart_id`). */
  id: number;
  chart_type: ChartType;
  /** Whether an annotation or a curator decided the type: the request then says it; otherwise it asks. */
  type_known: boolean;
  /** The stored image (PNG, or JPEG as CharXiv publishes). */
  image: Buffer;
}

/** The image as one request carried it, and its estimated share of the prompt (per request: retries and the repair turn send it again). */
export interface SentImage {
  width: number;
  height: number;
  detail: ImageDetail;
  tokens: number | null;
  cost: number | null;
}

export type ExtractionResult = LlmResult<ExtractedTable> & { image: SentImage };

export interface TableExtractor {
  readonly model: string;
  extract(chart: ChartImageInput, signal?: AbortSignal): Promise<ExtractionResult>;
}

export interface TableExtractorOptions {
  db: Db;
  /** The extraction role's (`providersFor(…).extraction`). */
  connection: ModelConnection;
  model: string;
  /** The `vision_max_side` and `vision_detail` settings. */
  image: VisionImageOptions;
  sleep?: Sleep;
}

/**
 * What the request says of the chart's type: a type an annotation or a curator decided, or a
 * question. An image-only chart's stored type is a placeholder (`other`, or the table's shape):
 * told it, the model would repeat it.
 */
export function typeRequest(chart: Pick<ChartImageInput, 'chart_type' | 'type_known'>): string {
  if (chart.type_known) return `Its type is known: ${CHART_TYPE_LABELS[chart.chart_type].toLowerCase()} (\`${chart.chart_type}\`); give that as \`chart_type\`.`;
  return 'Its type is not known: say which it is in `chart_type`.';
}

/** What an extraction reply must be and how it becomes a table: the live client's and a batch file's replies are read by it alike. */
export const EXTRACTION_OUTPUT = { wireSchema: ExtractedTableWireSchema, schemaName: EXTRACTED_TABLE_SCHEMA_NAME, convert: toExtractedTable } as const;

/** The extraction prompt's template, as its calls record it. */
export function extractionTemplate(): { name: string; hash: string } {
  const template = loadTemplate('extract-table');
  return { name: template.name, hash: template.hash };
}

/** The structured request one extraction makes, at temperature 0: the image (as `prepareVisionImage` made it), then the prompt. */
export function extractionRequest(chart: Omit<ChartImageInput, 'image'>, image: VisionImage, model: string, signal?: AbortSignal): LlmRequest<ExtractedTableWire, ExtractedTable> {
  const template = loadTemplate('extract-table');
  const prompt = template.render({ type_request: typeRequest(chart) });
  return {
    purpose: EXTRACTION_PURPOSE,
    template: { name: template.name, hash: template.hash },
    messages: { system: prompt.system, user: prompt.user, image: image.url, imageDetail: image.detail },
    ...EXTRACTION_OUTPUT,
    model,
    temperature: 0,
    chartId: chart.id,
    images: requestImages(model, [image]),
    ...(signal ? { signal } : {}),
  };
}

/**
 * The extraction role's structured calls go through the one client (llm-client.ts): its
 * retries, its repair turn for a reply that is not a table, its fallback to JSON mode for an
 * endpoint without structured output, a `llm_calls` row per request.
 */
export function createTableExtractor(options: TableExtractorOptions): TableExtractor {
  const { db, connection, model } = options;
  const client = createLlmClient({ db, connection, ...(options.sleep ? { sleep: options.sleep } : {}) });
  const extract = async (chart: ChartImageInput, signal?: AbortSignal): Promise<ExtractionResult> => {
    const image = await prepareVisionImage(chart.image, options.image);
    const estimate = imageTokenEstimate(model, image.size, image.detail, connection.prices);
    const result = await client.complete(extractionRequest(chart, image, model, signal));
    return { ...result, image: { ...image.size, detail: image.detail, ...estimate } };
  };
  return { model, extract };
}
