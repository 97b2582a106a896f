import { CHART_TYPE_LABELS, type ChartType } from '../../shared/domain/chart-types';
import { ModelItemOutputSchema, ModelProposalOutputSchema, toItemDraft, toProposalTexts } from '../../shared/generation/model-output';
import type { Settings } from '../../shared/settings';
import type { QaWithChart } from '../charts/chart-queries';
import { chartTypeDescription, loadTemplate, tableToPromptCsv } from '../llm/templates';
import { imageDataUrl } from '../tables/extract-table';

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

/**
 * Stage 2's messages. `image`: the chart's own stored image, when it has one: the model sees the
 * chart as well as its table, which matters most when the table was extracted and nobody has
 * confirmed it yet (the image is then the ground truth, and the table may have misread it).
 */
export function itemMessages(source: QaWithChart, proposal: { text: string }, image: Buffer | null): { system: string; user: string; image?: string } {
  const { chart, qa } = source;
  const messages = stage2Template().render({
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
  return image === null ? messages : { ...messages, image: imageDataUrl(image) };
}
