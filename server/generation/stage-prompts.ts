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
  type ModelItemOutput,
} from '../../shared/generation/model-output';
import { ModelChoiceItemOutputSchema, toChosenItem, type ModelChoiceItemOutput } from '../../shared/generation/choice-output';
import { editedChart } from '../../shared/table/group-edit';
import type { ProposalScope } from '../../shared/api/pool';
import type { Settings } from '../../shared/settings';
import type { QaWithChart } from '../charts/chart-queries';
import { chartTypeDescription, loadTemplate, tableToPromptCsv } from '../llm/templates';
import { prepareVisionImage, type VisionImage, type VisionImageOptions } from '../llm/vision-image';

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

/** Stage 2's choose-mode wire over a group: the choice keys, then the group item's keys (every op naming its chart). */
export const ModelGroupChoiceItemOutputSchema = ModelChoiceItemOutputSchema.extend({ edit: ModelGroupItemOutputSchema.shape.edit });
export type ModelGroupChoiceItemOutput = z.infer<typeof ModelGroupChoiceItemOutputSchema>;

/** A proposal a Stage 2 request offers; `chart_type`, over a group, the type of the chart it edits. */
export interface OfferedProposal {
  id: number;
  text: string;
  chart_type?: ChartType;
}

/**
 * What a Stage 2 request offers, from the task's pairing (shared/generation/pairing.ts): the
 * proposal it is paired with, or the candidates the model chooses from (or declines).
 */
export type Stage2Offer = { kind: 'paired'; proposal: OfferedProposal } | { kind: 'choose'; candidates: OfferedProposal[] };

/** A Stage 2 reply read, whichever wire it came on: the item and the proposal it performs, or the model's decline. */
export type Stage2Reply = { declined: string } | { proposalId: number; draft: ModelItem['draft']; notes: ModelItem['notes'] };

/**
 * The wire a Stage 2 request sends and reads its reply with: the item's (over a group, the group
 * item's), or in choose mode the same with `proposal` and `decline` first. The reply comes back as
 * a `Stage2Reply`, the chosen number turned into its candidate's id.
 */
export function stage2Wire(source: QaWithChart, offer: Stage2Offer): { schema: z.ZodType<unknown>; name: string; convert: (wire: unknown) => Converted<Stage2Reply> } {
  const chartCount = source.group?.charts.length ?? null;
  // Each schema below parsed the reply before `convert` sees it, so the casts only restore the type the parse proved.
  const readItem = (item: ModelGroupItemOutput | ModelItemOutput): Converted<ModelItem> =>
    chartCount === null ? toItemDraft(item as ModelItemOutput) : toGroupItemDraft(item as ModelGroupItemOutput, chartCount);
  if (offer.kind === 'paired') {
    const paired = (read: Converted<ModelItem>): Converted<Stage2Reply> => (read.ok ? { ok: true, value: { proposalId: offer.proposal.id, ...read.value } } : read);
    if (chartCount === null) return { ...STAGE_WIRES.stage2, convert: (wire) => paired(readItem(wire as ModelItemOutput)) };
    return { schema: ModelGroupItemOutputSchema, name: 'hqa_group_item', convert: (wire) => paired(readItem(wire as ModelGroupItemOutput)) };
  }
  const { candidates } = offer;
  const chosen = (wire: ModelChoiceItemOutput | ModelGroupChoiceItemOutput): Converted<Stage2Reply> => {
    const read = toChosenItem(wire, candidates.length, (item) => readItem(item as ModelItemOutput));
    if (!read.ok) return read;
    if ('declined' in read.value) return { ok: true, value: { declined: read.value.declined } };
    const candidate = candidates[read.value.candidate - 1];
    if (!candidate) return { ok: false, reason: `proposal: ${read.value.candidate} is not a listed proposal (1 to ${candidates.length})` };
    return { ok: true, value: { proposalId: candidate.id, ...read.value.item } };
  };
  return chartCount === null
    ? { schema: ModelChoiceItemOutputSchema, name: 'hqa_item_choice', convert: (wire) => chosen(wire as ModelChoiceItemOutput) }
    : { schema: ModelGroupChoiceItemOutputSchema, name: 'hqa_group_item_choice', convert: (wire) => chosen(wire as ModelGroupChoiceItemOutput) };
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

/** Stage 2's messages as the LLM client takes them: the images as `stage2Images` scaled them, at their `detail`. */
export type Stage2Messages = { system: string; user: string; image?: string; images?: string[]; imageDetail?: VisionImage['detail'] };

/**
 * The images a Stage 2 request shows, by chart id (the chart's, or every group member's that has
 * one), scaled once by the vision settings (`prepareVisionImage`) before the request is built:
 * the same stored image and settings give the same bytes, so a prompt cache still serves them.
 */
export async function stage2Images(source: QaWithChart, stored: (chartId: number) => Buffer | null, vision: VisionImageOptions): Promise<Map<number, VisionImage>> {
  const ids = source.group ? source.group.charts.map((member) => member.id) : [source.chart.id];
  const images = new Map<number, VisionImage>();
  for (const id of ids) {
    const png = stored(id);
    if (png !== null) images.set(id, await prepareVisionImage(png, vision));
  }
  return images;
}

/**
 * Stage 2's messages. `imageOf`: a chart's own stored image as `stage2Images` made it, when it has one: the model sees the
 * chart as well as its table, which matters most when the table was extracted and nobody has
 * confirmed it yet (the prompt says what the image is for and that the table decides).
 * Over a group, every chart's table ("Chart 1 (type): title", CSV) and every stored image, in
 * chart order, the text naming the charts without one; a paired proposal's `chart_type` (the
 * chart it edits) marks the charts of its type, and in choose mode each candidate names its type.
 * `offer`: the proposal the task is paired with, or the numbered candidates to choose from.
 *
 * What a prompt cache can serve: the system message is the template's instructions, the same
 * bytes for every request (choose mode included), then the chart type's description (one of
 * nine); the chart, the question and the proposal or candidates are the user message, after the images.
 */
export function itemMessages(
  source: QaWithChart,
  offer: Stage2Offer,
  imageOf: (chartId: number) => VisionImage | null,
): Stage2Messages {
  const { chart, qa, group } = source;
  // The chart type whose description the system message ends with: the paired proposal's, in choose mode the task's own (listed first).
  const lead = offer.kind === 'paired' ? offer.proposal : offer.candidates[0];
  const proposal = offer.kind === 'paired' ? offer.proposal.text : null;
  if (group) {
    const chartType = lead?.chart_type ?? chart.chart_type;
    const pngs = group.charts.map((member) => imageOf(member.id));
    const candidates =
      offer.kind === 'choose'
        ? offer.candidates.map((candidate, index) => ({ number: index + 1, text: candidate.text, chart_type_label: CHART_TYPE_LABELS[candidate.chart_type ?? chart.chart_type] }))
        : [];
    const messages = stage2GroupTemplate().render({
      chart_type: chartType,
      chart_type_label: CHART_TYPE_LABELS[chartType],
      chart_type_description: chartTypeDescription(chartType),
      proposal,
      candidates,
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
        // In choose mode each candidate says which type of chart it edits.
        editable: offer.kind === 'paired' && member.chart_type === chartType,
        image: pngs[index] !== null,
      })),
    });
    const shown = pngs.flatMap((image) => (image === null ? [] : [image]));
    return shown.length === 0 ? messages : { ...messages, images: shown.map((image) => image.url), imageDetail: shown[0]?.detail };
  }
  const image = imageOf(chart.id);
  const messages = stage2Template().render({
    chart_type: chart.chart_type,
    chart_type_label: CHART_TYPE_LABELS[chart.chart_type],
    chart_type_description: chartTypeDescription(chart.chart_type),
    proposal,
    candidates: offer.kind === 'choose' ? offer.candidates.map((candidate, index) => ({ number: index + 1, text: candidate.text })) : [],
    question: qa.query,
    label: qa.label,
    title: chart.title,
    table_csv: tableToPromptCsv(chart.table),
    series: chart.table.series,
    rows: chart.table.rows.map((r) => r.label),
  });
  return image === null ? messages : { ...messages, image: image.url, imageDetail: image.detail };
}
