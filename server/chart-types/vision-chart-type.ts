import { zodResponseFormat } from 'openai/helpers/zod';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import type { Db } from '../../db/database';
import { DomainError } from '../domain-error';
import { CHART_TYPE_REPLY_SCHEMA_NAME, ChartTypeReplyWireSchema, toChartTypeReply, type ChartTypeReply } from '../../shared/domain/chart-type-reply';
import { callCost } from '../llm/cost';
import { repairMessage, validateReply, type LlmFailureKind, type LlmUsage } from '../llm/llm-client';
import { providersFor, type ModelEnv } from '../llm/model-roles';
import { createTransport, type ChatBody, type ModelConnection } from '../llm/provider';
import { describeFailure, type Sleep } from '../llm/retry';
import { loadTemplate } from '../llm/templates';
import { getSettings } from '../settings/settings-queries';
import { prepareVisionImage, type VisionImage } from '../llm/vision-image';
import { requestImages } from '../llm/image-tokens';

/**
 * Asks the `chart_type` role's vision model which chart type an image shows: one small call per
 * chart — the image at low detail (sent at 512 px, as the endpoint would downscale it: a fixed,
 * small image cost), strict structured output whose `chart_type` is the vocabulary's enum, with the bars'
 * orientation and stacking asked first as a hint the type must agree with, at temperature 0 (the
 * reply is three enum fields). Through the one transport, so each request (retries, one repair turn) is an
 * `llm_calls` row with purpose `chart_type`, the chart's id and its cost.
 */

export const CHART_TYPE_PURPOSE = 'chart_type';

export type ChartTypeResult =
  | { ok: true; value: ChartTypeReply; usage: LlmUsage; attempts: number }
  | { ok: false; kind: LlmFailureKind; reason: string; usage: LlmUsage; attempts: number };

export interface ChartTypeReader {
  readonly model: string;
  read(chart: { id: number; image: Buffer }, signal?: AbortSignal): Promise<ChartTypeResult>;
}

/** Why no vision model can be asked (no endpoint configured). */
export class NoVisionModelError extends DomainError {
  constructor() {
    super('conflict', 'telling chart types from images needs a vision model: set OPENAI_API_KEY (and OPENAI_BASE_URL for an endpoint other than OpenAI); the extraction_model setting names the model');
  }
}

let format: ResponseFormatJSONSchema | null = null;
/** Only the wire format is sent: the reply is parsed here, after its raw text is recorded. */
function responseFormat(): ResponseFormatJSONSchema {
  if (!format) {
    const { type, json_schema } = zodResponseFormat(ChartTypeReplyWireSchema, CHART_TYPE_REPLY_SCHEMA_NAME);
    format = { type, json_schema };
  }
  return format;
}

/** What one question about an image's type sends (the image as `prepareVisionImage` made it), after any repair turn. */
export function chartTypeBody(image: VisionImage, repairTurns: ChatCompletionMessageParam[] = []): ChatBody {
  const prompt = loadTemplate('chart-type').render({});
  const content: ChatCompletionContentPart[] = [
    { type: 'image_url', image_url: { url: image.url, detail: image.detail } },
    { type: 'text', text: prompt.user },
  ];
  return {
    temperature: 0,
    messages: [{ role: 'system', content: prompt.system }, { role: 'user', content }, ...repairTurns],
    response_format: responseFormat(),
  };
}

/** The type is read at low detail whatever `vision_detail` says: three enum fields need no small print. */
const CHART_TYPE_DETAIL = 'low';

/** `maxSide`: the `vision_max_side` setting (low detail sends at most 512 px anyway). */
export function createChartTypeReader(options: { db: Db; connection: ModelConnection; model: string; maxSide: number; sleep?: Sleep }): ChartTypeReader {
  const { db, connection, model } = options;
  const transport = createTransport({ db, connection, ...(options.sleep ? { sleep: options.sleep } : {}) });
  const template = loadTemplate('chart-type');

  async function read(chart: { id: number; image: Buffer }, signal?: AbortSignal): Promise<ChartTypeResult> {
    const usage: LlmUsage = { prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, cost: 0, priced: callCost(model, { prompt_tokens: 0, completion_tokens: 0 }, connection.prices).priced };
    const image = await prepareVisionImage(chart.image, { maxSide: options.maxSide, detail: CHART_TYPE_DETAIL });
    const images = requestImages(model, [image]);
    const call = transport.call({ purpose: CHART_TYPE_PURPOSE, model, template: { name: template.name, hash: template.hash }, chartId: chart.id, images, signal });
    const fail = (kind: LlmFailureKind, reason: string): ChartTypeResult => ({ ok: false, kind, reason, usage, attempts: call.attempts });
    const repairTurns: ChatCompletionMessageParam[] = [];
    for (;;) {
      const body = chartTypeBody(image, repairTurns);
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
      const checked = validateReply(reply.content, reply.completion.choices[0]?.finish_reason, { wireSchema: ChartTypeReplyWireSchema, convert: toChartTypeReply });
      if (checked.ok) {
        call.settle(reply.callId, 'ok', null);
        return { ok: true, value: checked.value, usage, attempts: call.attempts };
      }
      call.settle(reply.callId, 'invalid', `${checked.kind}: ${checked.error}`);
      if (repairTurns.length > 0) return fail('invalid', `${checked.kind} after repair: ${checked.error}`);
      repairTurns.push({ role: 'assistant', content: reply.content ?? '' }, { role: 'user', content: repairMessage(checked.error, CHART_TYPE_REPLY_SCHEMA_NAME) });
    }
  }

  return { model, read };
}

/**
 * The reader of the `chart_type` role, or NoVisionModelError. `model`: the one a stored job was
 * planned with, so a job resumed after the setting changed still asks its model.
 */
export function chartTypeReaderFor(db: Db, env: ModelEnv, model?: string): ChartTypeReader {
  const settings = getSettings(db);
  const role = providersFor(settings, env).chart_type;
  if (!role.connection || !role.model) throw new NoVisionModelError();
  return createChartTypeReader({ db, connection: role.connection, model: model ?? role.model, maxSide: settings.vision_max_side });
}
