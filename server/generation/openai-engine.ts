import type { Db } from '../../db/database';
import type { z } from 'zod';
import type { Converted } from '../../shared/generation/model-output';
import type { Settings } from '../../shared/settings';
import { getChartImage } from '../charts/chart-queries';
import { createLlmClient } from '../llm/llm-client';
import type { ModelConnection } from '../llm/provider';
import type { EngineUsage, GenerationEngine } from './engine';
import { requestImages, type RequestImages } from '../llm/image-tokens';
import { visionOptions } from '../llm/vision-image';
import { itemMessages, itemTemplateFor, proposalMessages, STAGE_WIRES, stage1Template, stage2Images, stage2Wire, type Stage2Messages, type Stage2Offer } from './stage-prompts';

export interface OpenAiEngineOptions {
  db: Db;
  /** The generation role's (`providersFor(…).generation`). */
  connection: ModelConnection;
  model: string;
  temperature: number;
  settings: Settings;
}

/** Stage 1 and Stage 2 through an OpenAI-compatible endpoint, with the prompts of `prompts/`. */
export function createOpenAiEngine(options: OpenAiEngineOptions): GenerationEngine {
  const client = createLlmClient({ db: options.db, connection: options.connection, engineName: 'openai' });
  const stage1 = stage1Template();
  /** One stage's call: the template's hash recorded, the usage summed over attempts. */
  async function call<W, T>(
    purpose: 'stage1' | 'stage2',
    template: { name: string; hash: string },
    messages: Stage2Messages,
    wire: { schema: z.ZodType<W>; name: string; convert: (value: W) => Converted<T> },
    request: { runId: number; taskId: number; signal: AbortSignal },
    images?: RequestImages,
  ): Promise<{ ok: true; value: T; usage: EngineUsage } | { ok: false; reason: string; usage: EngineUsage; transport: boolean }> {
    const result = await client.complete({
      purpose,
      template: { name: template.name, hash: template.hash },
      messages,
      wireSchema: wire.schema,
      schemaName: wire.name,
      convert: wire.convert,
      model: options.model,
      temperature: options.temperature,
      runId: request.runId,
      taskId: request.taskId,
      ...(images ? { images } : {}),
      signal: request.signal,
    });
    const usage: EngineUsage = {
      calls: result.attempts,
      prompt_tokens: result.usage.prompt_tokens,
      completion_tokens: result.usage.completion_tokens,
      cached_tokens: result.usage.cached_tokens,
      cost: result.usage.cost,
    };
    return result.ok ? { ok: true, value: result.value, usage } : { ok: false, reason: result.reason, usage, transport: result.kind === 'transport' };
  }

  return {
    engine: 'openai',
    model: options.model,
    async proposals(request) {
      const messages = proposalMessages(options.settings, request.chartType, request.examples, request.scope);
      const result = await call('stage1', stage1, messages, STAGE_WIRES.stage1, request);
      return result.ok ? { ok: true, texts: result.value, usage: result.usage } : result;
    },
    async item(request) {
      const { proposal } = request;
      const offer: Stage2Offer = request.offer ?? { kind: 'paired', proposal: { id: proposal.id, text: proposal.text, ...(proposal.chartType ? { chart_type: proposal.chartType } : {}) } };
      const shown = await stage2Images(request.source, (chartId) => getChartImage(options.db, chartId)?.png ?? null, visionOptions(options.settings));
      const messages = itemMessages(request.source, offer, (chartId) => shown.get(chartId) ?? null);
      const images = requestImages(options.model, [...shown.values()]);
      const result = await call('stage2', itemTemplateFor(request.source), messages, stage2Wire(request.source, offer), request, images);
      if (!result.ok) return result;
      const reply = result.value;
      return 'declined' in reply ? { ok: true, declined: reply.declined, usage: result.usage } : { ok: true, draft: reply.draft, notes: reply.notes, proposalId: reply.proposalId, usage: result.usage };
    },
  };
}
