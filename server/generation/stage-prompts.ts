import { CHART_TYPE_LABELS, type ChartType } from '../../shared/domain/chart-types';
import { z } from 'zod';
import { HqaItemDraftSchema } from '../../shared/generation/item-draft';
import {
  describeIssues,
  ModelEditOpSchema,
  ModelItemOutputSchema,
  ModelProposalOutputSchema,
  toItemDraft,
  toProposalTexts,
  type Converted,
  type ModelItem,
} from '../../shared/generation/model-output';
import { editedChart } from '../../shared/table/group-edit';
import type { ProposalScope } from '../../shared/api/pool';
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

/**
 * Stage 2's wire over a chart group: every op also names its chart (strict structured output
 * wants every field, so "no chart" would be `null`: refused by name, so the model's repair turn
 * is told which op, as the verifier would).
 */
export const ModelGroupItemOutputSchema = ModelItemOutputSchema.extend({
  edit: z
    .array(ModelEditOpSchema.extend({ chart: z.number().int().nullable().describe('The chart the op edits: its number in the group (1 for the first chart). Required on every op; every op names the same chart.') }))
    .describe('The assumption as edit operations on ONE chart of the group, each naming that chart.'),
});
export type ModelGroupItemOutput = z.infer<typeof ModelGroupItemOutputSchema>;

/** The wire for an item over a group of `chartCount` charts. */
export function groupStage2Wire(chartCount: number) {
  return { schema: ModelGroupItemOutputSchema, name: 'hqa_group_item', convert: (wire: ModelGroupItemOutput) => toGroupItemDraft(wire, chartCount) };
}

/** A group reply read as toItemDraft reads one chart's, then each op given back its chart, checked as the verifier checks it. */
export function toGroupItemDraft(wire: ModelGroupItemOutput, chartCount: number): Converted<ModelItem> {
  const missing = wire.edit.findIndex((op) => op.chart === null);
  if (missing !== -1) {
    return { ok: false, reason: `edit.${missing}.chart: op ${missing} does not name its chart: this item spans ${chartCount} charts, so every op says which one it edits ("chart": 1 to ${chartCount})` };
  }
  const single = toItemDraft({ ...wire, edit: wire.edit.map(({ chart: _chart, ...op }) => op) });
  if (!single.ok) return single;
  const edit = (single.value.draft.edit ?? []).map((op, index) => ({ ...op, chart: wire.edit[index]?.chart ?? undefined }));
  const parsed = HqaItemDraftSchema.safeParse({ ...single.value.draft, edit });
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error) };
  const target = editedChart(parsed.data.edit ?? [], chartCount);
  if (!target.ok) return { ok: false, reason: `edit.${target.error.op}.chart: ${target.error.message}` };
  return { ok: true, value: { draft: parsed.data, notes: single.value.notes } };
}

export const stage1Template = () => loadTemplate('stage1-proposals');
export const stage2Template = () => loadTemplate('stage2-item');
export const stage2GroupTemplate = () => loadTemplate('stage2-group-item');

/** The Stage 2 template a question is asked with: the group prompt for a question over a chart group. */
export function itemTemplateFor(source: QaWithChart): { name: string; hash: string } {
  return source.group ? stage2GroupTemplate() : stage2Template();
}

/** `scope` 'group': proposals for questions over a chart group (the examples are group proposals). */
export function proposalMessages(settings: Settings, chartType: ChartType, examples: { text: string }[], scope: ProposalScope = 'chart'): { system: string; user: string } {
  return stage1Template().render({
    chart_type: chartType,
    chart_type_label: CHART_TYPE_LABELS[chartType],
    chart_type_description: chartTypeDescription(chartType),
    examples: examples.map((e) => e.text),
    count: settings.proposals_per_call,
    group: scope === 'group',
  });
}

/**
 * Stage 2's messages. `imageOf`: a chart's own stored image, when it has one: the model sees the
 * chart as well as its table, which matters most when the table was extracted and nobody has
 * confirmed it yet (the prompt says what the image is for and that the table decides).
 * Over a group, every chart's table ("Chart 1 (type): title", CSV) and every stored image, in
 * chart order, the text naming the charts without one; `proposal.chart_type` (the chart it
 * edits) marks the charts of its type.
 *
 * What a prompt cache can serve: the system message is the template's instructions, the same
 * bytes for every request, then the chart type's description (one of nine); the chart, the
 * question and the proposal are the user message, after the images.
 */
export function itemMessages(
  source: QaWithChart,
  proposal: { text: string; chart_type?: ChartType },
  imageOf: (chartId: number) => Buffer | null,
): { system: string; user: string; image?: string; images?: string[] } {
  const { chart, qa, group } = source;
  if (group) {
    const chartType = proposal.chart_type ?? chart.chart_type;
    const pngs = group.charts.map((member) => imageOf(member.id));
    const messages = stage2GroupTemplate().render({
      chart_type: chartType,
      chart_type_label: CHART_TYPE_LABELS[chartType],
      chart_type_description: chartTypeDescription(chartType),
      proposal: proposal.text,
      question: qa.query,
      label: qa.label,
      charts: group.charts.map((member, index) => ({
        position: member.position,
        chart_type: member.chart_type,
        chart_type_label: CHART_TYPE_LABELS[member.chart_type],
        title: member.title,
        table_csv: tableToPromptCsv(member.table),
        series: member.table.series,
        rows: member.table.rows.map((r) => r.label),
        editable: member.chart_type === chartType,
        image: pngs[index] !== null,
      })),
    });
    const images = pngs.flatMap((png) => (png === null ? [] : [imageDataUrl(png)]));
    return images.length === 0 ? messages : { ...messages, images };
  }
  const image = imageOf(chart.id);
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
