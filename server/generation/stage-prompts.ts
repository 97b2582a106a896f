import { CHART_TYPE_LABELS, type ChartType } from '../../shared/domain/chart-types';
import { ModelItemOutputSchema, ModelProposalOutputSchema, toItemDraft, toProposalTexts } from '../../shared/generation/model-output';
import type { Settings } from '../../shared/settings';
import type { QaWithChart } from '../charts/chart-queries';
import { chartTypeDescription, loadTemplate, tableToPromptCsv } from '../llm/templates';

/**
 * What Stage 1 and Stage 2 ask a model, built in one place for the call-by-call engine
 * (`openai-engine.ts`) and the batch runs (`batch-stage.ts`): the template, its rendered
 * messages, and the structured output the reply is read into.
 */

export const STAGE_WIRES = {
  stage1: { schema: ModelProposalOutputSchema, name: 'proposal_batch', convert: toProposalTexts },
  stage2: { schema: ModelItemOutputSchema, name: 'hqa_item', convert: toItemDraft },
} as const;

export const stage1Template = () => loadTemplate('stage1-proposals');
export const stage2Template = () => loadTemplate('stage2-item');

export function proposalMessages(settings: Settings, chartType: ChartType, examples: { text: string }[]): { system: string; user: string } {
  return stage1Template().render({
    chart_type: chartType,
    chart_type_label: CHART_TYPE_LABELS[chartType],
    chart_type_description: chartTypeDescription(chartType),
    examples: examples.map((e) => e.text),
    count: settings.proposals_per_call,
  });
}

export function itemMessages(source: QaWithChart, proposal: { text: string }): { system: string; user: string } {
  const { chart, qa } = source;
  return stage2Template().render({
    chart_type: chart.chart_type,
    chart_type_label: CHART_TYPE_LABELS[chart.chart_type],
    chart_type_description: chartTypeDescription(chart.chart_type),
    proposal: proposal.text,
    question: qa.query,
    label: qa.label,
    title: chart.title,
    table_csv: tableToPromptCsv(chart.table),
    series: chart.table.series,
    rows: chart.table.rows.map((r) => r.label),
  });
}
