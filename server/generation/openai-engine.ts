import type { Db } from '../../db/database';
import { CHART_TYPE_LABELS } from '../../shared/domain/chart-types';
import type { z } from 'zod';
import { ModelItemOutputSchema, ModelProposalOutputSchema, toItemDraft, toProposalTexts, type Converted } from '../../shared/generation/model-output';
import type { Settings } from '../../shared/settings';
import { createLlmClient } from '../llm/llm-client';
import type { ModelConnection } from '../llm/provider';
import { chartTypeDescription, loadTemplate, tableToPromptCsv } from '../llm/templates';
import type { EngineUsage, GenerationEngine } from './engine';

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
  const stage1 = loadTemplate('stage1-proposals');
  const stage2 = loadTemplate('stage2-item');
  /** One stage's call: the template's hash recorded, the usage summed over attempts. */
  async function call<W, T>(
    purpose: 'stage1' | 'stage2',
    template: { name: string; hash: string },
    messages: { system: string; user: string },
    wire: { schema: z.ZodType<W>; name: string; convert: (value: W) => Converted<T> },
    request: { runId: number; taskId: number; signal: AbortSignal },
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
      signal: request.signal,
    });
    const usage: EngineUsage = {
      calls: result.attempts,
      prompt_tokens: result.usage.prompt_tokens,
      completion_tokens: result.usage.completion_tokens,
      cost: result.usage.cost,
    };
    return result.ok ? { ok: true, value: result.value, usage } : { ok: false, reason: result.reason, usage, transport: result.kind === 'transport' };
  }

  return {
    engine: 'openai',
    model: options.model,
    async proposals(request) {
      const messages = stage1.render({
        chart_type: request.chartType,
        chart_type_label: CHART_TYPE_LABELS[request.chartType],
        chart_type_description: chartTypeDescription(request.chartType),
        examples: request.examples.map((e) => e.text),
        count: options.settings.proposals_per_call,
      });
      const result = await call('stage1', stage1, messages, { schema: ModelProposalOutputSchema, name: 'proposal_batch', convert: toProposalTexts }, request);
      return result.ok ? { ok: true, texts: result.value, usage: result.usage } : result;
    },
    async item(request) {
      const { chart, qa } = request.source;
      const messages = stage2.render({
        chart_type: chart.chart_type,
        chart_type_label: CHART_TYPE_LABELS[chart.chart_type],
        chart_type_description: chartTypeDescription(chart.chart_type),
        proposal: request.proposal.text,
        question: qa.query,
        label: qa.label,
        title: chart.title,
        table_csv: tableToPromptCsv(chart.table),
        series: chart.table.series,
        rows: chart.table.rows.map((r) => r.label),
      });
      const result = await call('stage2', stage2, messages, { schema: ModelItemOutputSchema, name: 'hqa_item', convert: toItemDraft }, request);
      return result.ok ? { ok: true, draft: result.value.draft, notes: result.value.notes, usage: result.usage } : result;
    },
  };
}
