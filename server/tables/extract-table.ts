import { zodResponseFormat } from 'openai/helpers/zod';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import type { Db } from '../../db/database';
import { CHART_TYPE_LABELS, type ChartType } from '../../shared/domain/chart-types';
import { EXTRACTED_TABLE_SCHEMA_NAME, ExtractedTableWireSchema, toExtractedTable, type ExtractedTable } from '../../shared/table-provenance/extracted-table';
import { imageMediaType } from '../import/benchmark-image';
import { callCost } from '../llm/cost';
import { repairMessage, validateReply, type LlmFailureKind, type LlmUsage } from '../llm/llm-client';
import { createTransport, type ChatBody, type ModelConnection } from '../llm/provider';
import { describeFailure, type Sleep } from '../llm/retry';
import { loadTemplate } from '../llm/templates';

/**
 * Reads a chart's data table from its image: the extraction model is shown the image (a base64
 * data URL) and asked, with strict structured output, for title, row labels, series with their
 * units, and values. Through the one transport, so each request (retries, the repair turn) is a
 * `llm_calls` row with purpose `extraction` and its cost. A reply that is not a table is shown
 * its error once; a second bad reply fails, named by its reason.
 */

export const EXTRACTION_PURPOSE = 'extraction';

export interface ChartImageInput {
  chart_type: ChartType;
  /** The stored image (PNG, or JPEG as CharXiv publishes). */
  image: Buffer;
}

export type ExtractionResult =
  | { ok: true; value: ExtractedTable; usage: LlmUsage; attempts: number }
  | { ok: false; kind: LlmFailureKind; reason: string; usage: LlmUsage; attempts: number };

export interface TableExtractor {
  readonly model: string;
  extract(chart: ChartImageInput, signal?: AbortSignal): Promise<ExtractionResult>;
}

export interface TableExtractorOptions {
  db: Db;
  /** The extraction role's (`providersFor(…).extraction`). */
  connection: ModelConnection;
  model: string;
  sleep?: Sleep;
}

let format: ResponseFormatJSONSchema | null = null;
/** Only the wire format is sent: the reply is parsed here, after its raw text is recorded. */
function responseFormat(): ResponseFormatJSONSchema {
  if (!format) {
    const { type, json_schema } = zodResponseFormat(ExtractedTableWireSchema, EXTRACTED_TABLE_SCHEMA_NAME);
    format = { type, json_schema };
  }
  return format;
}

/** The image as a data URL in its own media type (a JPEG sent as PNG is refused by some endpoints). */
export function imageDataUrl(image: Buffer): string {
  return `data:${imageMediaType(image) ?? 'image/png'};base64,${image.toString('base64')}`;
}

/** What one extraction sends at temperature 0, after any repair turns. */
export function extractionBody(chart: ChartImageInput, repairTurns: ChatCompletionMessageParam[] = []): ChatBody {
  const prompt = loadTemplate('extract-table').render({ chart_type_label: CHART_TYPE_LABELS[chart.chart_type] });
  const content: ChatCompletionContentPart[] = [
    { type: 'image_url', image_url: { url: imageDataUrl(chart.image) } },
    { type: 'text', text: prompt.user },
  ];
  return {
    temperature: 0,
    messages: [{ role: 'system', content: prompt.system }, { role: 'user', content }, ...repairTurns],
    response_format: responseFormat(),
  };
}

export function createTableExtractor(options: TableExtractorOptions): TableExtractor {
  const { db, connection, model } = options;
  const transport = createTransport({ db, connection, ...(options.sleep ? { sleep: options.sleep } : {}) });
  const template = loadTemplate('extract-table');

  async function extract(chart: ChartImageInput, signal?: AbortSignal): Promise<ExtractionResult> {
    const usage: LlmUsage = { prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, cost: 0, priced: callCost(model, { prompt_tokens: 0, completion_tokens: 0 }, connection.prices).priced };
    const call = transport.call({ purpose: EXTRACTION_PURPOSE, model, template: { name: template.name, hash: template.hash }, signal });
    const fail = (kind: LlmFailureKind, reason: string): ExtractionResult => ({ ok: false, kind, reason, usage, attempts: call.attempts });
    const repairTurns: ChatCompletionMessageParam[] = [];
    for (;;) {
      const body = extractionBody(chart, repairTurns);
      const reply = await call.send({ body: () => body, validateLater: true });
      if (!reply.ok) {
        if (reply.kind === 'cancelled') return fail('cancelled', 'cancelled');
        const kind = reply.kind === 'rejected' && reply.failure.kind === 'client' ? 'rejected' : 'transport';
        return fail(kind, `${describeFailure(reply.failure)} after ${reply.failures} ${reply.failures === 1 ? 'attempt' : 'attempts'}`);
      }
      usage.prompt_tokens += reply.tokens.prompt_tokens;
      usage.completion_tokens += reply.tokens.completion_tokens;
      usage.cached_tokens += reply.tokens.cached_tokens;
      usage.cost += reply.cost;
      if (reply.refusal) return fail('refused', `refused: ${reply.refusal}`);
      const checked = validateReply(reply.content, reply.completion.choices[0]?.finish_reason, { wireSchema: ExtractedTableWireSchema, convert: toExtractedTable });
      if (checked.ok) {
        call.settle(reply.callId, 'ok', null);
        return { ok: true, value: checked.value, usage, attempts: call.attempts };
      }
      call.settle(reply.callId, 'invalid', `${checked.kind}: ${checked.error}`);
      if (repairTurns.length > 0) return fail('invalid', `${checked.kind} after repair: ${checked.error}`);
      repairTurns.push({ role: 'assistant', content: reply.content ?? '' }, { role: 'user', content: repairMessage(checked.error, EXTRACTED_TABLE_SCHEMA_NAME) });
    }
  }

  return { model, extract };
}
