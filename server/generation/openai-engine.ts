import type { Db } from '../../db/database';
import { CHART_TYPE_LABELS } from '../../shared/domain/chart-types';
import { ModelItemOutputSchema, ModelProposalOutputSchema, toItemDraft, toProposalTexts } from '../../shared/generation/model-output';
import type { Settings } from '../../shared/settings';
import { createLlmClient } from '../llm/llm-client';
import { chartTypeDescription, loadTemplate, tableToPromptCsv } from '../llm/templates';
import type { EngineUsage, GenerationEngine } from './engine';

export interface OpenAiEngineOptions {
  db: Db;
  apiKey: string;
  baseURL?: string;
  model: string;
  temperature: number;
  settings: Settings;
}

/** Stage 1 and Stage 2 through an OpenAI-compatible endpoint, with the prompts of `prompts/`. */
export function createOpenAiEngine(options: OpenAiEngineOptions): GenerationEngine {
  const client = createLlmClient({
    db: options.db,
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    settings: options.settings,
    engineName: 'openai',
  });
  const stage1 = loadTemplate('stage1-proposals');
  const stage2 = loadTemplate('stage2-item');
  const usageOf = (u: { prompt_tokens: number; completion_tokens: number; cost: number }, attempts: number): EngineUsage => ({
    calls: attempts,
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    cost: u.cost,
  });

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
      const result = await client.complete({
        purpose: 'stage1',
        template: { name: stage1.name, hash: stage1.hash },
        messages,
        wireSchema: ModelProposalOutputSchema,
        schemaName: 'proposal_batch',
        convert: toProposalTexts,
        model: options.model,
        temperature: options.temperature,
        runId: request.runId,
        taskId: request.taskId,
        signal: request.signal,
      });
      const usage = usageOf(result.usage, result.attempts);
      return result.ok ? { ok: true, texts: result.value, usage } : { ok: false, reason: result.reason, usage };
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
      const result = await client.complete({
        purpose: 'stage2',
        template: { name: stage2.name, hash: stage2.hash },
        messages,
        wireSchema: ModelItemOutputSchema,
        schemaName: 'hqa_item',
        convert: toItemDraft,
        model: options.model,
        temperature: options.temperature,
        runId: request.runId,
        taskId: request.taskId,
        signal: request.signal,
      });
      const usage = usageOf(result.usage, result.attempts);
      return result.ok ? { ok: true, draft: result.value, usage } : { ok: false, reason: result.reason, usage };
    },
  };
}
