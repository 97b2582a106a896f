import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Db } from '../../db/database';
import { parseJsonColumn, parseNullableJsonColumn } from '../../db/json-column';
import {
  CHART_HQA_VERSION,
  exportItemId,
  ExportProvenanceSchema,
  type ChartHqaItem,
  type ExportFormat,
  type ExportItem,
  type ExportItemFull,
  type ExportStats,
  type GroupExportItem,
  type GroupExportItemFull,
} from '../../shared/export/chart-hqa';
import { ChartTypeSchema } from '../../shared/domain/chart-types';
import { QuestionRelationSchema } from '../../shared/domain/generation';
import { QaSourceSchema } from '../../shared/domain/qa';
import { AnswerTypeSchema, classifyAnswer } from '../../shared/table/answers';
import { editedChartOf } from '../items/item-group-queries';
import { listItemReviews } from '../review/review-queries';
import { exportGroupCharts, exportStats, iterateAccepted, sharedImgnames, type ExportGroupChart, type ExportRow } from './export-queries';
import type { PairsSummary } from './pairs-writer';

export interface ExportOptions {
  format: ExportFormat;
  name: string;
  /** Add provenance for audits (chart-hqa and jsonl only). */
  full: boolean;
  /**
   * Called once per chart of the export (every chart of a group item's group included), for
   * writing images beside it (`imgname` as the items name it, maybe `split/name`).
   */
  onChart?: (chart: { id: number; imgname: string }) => Promise<void> | void;
  /** `jsonl` only: the record written for an item, in place of the item (hf-dataset adds its image's file). */
  line?: (item: ChartHqaItem) => object;
}

/** A chart's image name in the export: `split/name` when two exported splits share the name. */
const exportedName = (chart: { imgname: string; split: string }, shared: ReadonlySet<string>) => (shared.has(chart.imgname) ? `${chart.split}/${chart.imgname}` : chart.imgname);

/** An accepted item as every export shows it: reviewers' corrections applied. */
export function toExportItem(row: ExportRow, shared: ReadonlySet<string> = new Set()): ExportItem {
  const answer = row.final_answer ?? row.answer;
  return {
    id: exportItemId(row.id),
    imgname: exportedName(row, shared),
    chart_type: ChartTypeSchema.parse(row.chart_type),
    assumption: row.assumption,
    question: row.final_question ?? row.question,
    answer,
    answer_type: row.final_answer === null ? AnswerTypeSchema.parse(row.answer_type) : classifyAnswer(answer),
    affects_answer: row.affects_answer === 1,
    // Unclassified (NULL) is not shown to be the factual question, so it is not counted as one.
    question_relation: row.question_relation === null ? 'different' : QuestionRelationSchema.parse(row.question_relation),
    control: row.is_control === 1,
    original: { query: row.query, label: row.label, source: QaSourceSchema.parse(row.source) },
    proposal: row.proposal_id === null ? null : { id: row.proposal_id, text: row.proposal_text ?? '' },
    review: {
      reviews: row.accepts + row.rejects,
      accepts: row.accepts,
      rejects: row.rejects,
      adjudicated: row.adjudicated === 1,
      corrected: row.final_answer !== null || row.final_question !== null,
    },
    verification: { table: row.table_confirmed === 1 ? 'confirmed' : 'unconfirmed' },
  };
}

/**
 * An accepted item over a chart group: every chart's image in group order in place of
 * `imgname`, and the edited chart. `chart_type` stays the item's own chart's (the group's first),
 * as every other count of the workbench (evaluation's breakdown by chart type) reads it.
 */
export function toGroupExportItem(row: ExportRow, charts: readonly ExportGroupChart[], shared: ReadonlySet<string> = new Set()): GroupExportItem {
  const { imgname: _first, ...single } = toExportItem(row, shared);
  const edited_chart = editedChartOf(parseNullableJsonColumn(ExportProvenanceSchema.shape.edit, row.edit, { table: 'hqa_items', column: 'edit', id: row.id }), charts.length);
  return { ...single, images: charts.map((chart) => exportedName(chart, shared)), edited_chart };
}

function withProvenance(db: Db, row: ExportRow, item: ExportItem): ExportItemFull;
function withProvenance(db: Db, row: ExportRow, item: GroupExportItem): GroupExportItemFull;
function withProvenance(db: Db, row: ExportRow, item: ChartHqaItem): ExportItemFull | GroupExportItemFull;
function withProvenance(db: Db, row: ExportRow, item: ChartHqaItem): ExportItemFull | GroupExportItemFull {
  return {
    ...item,
    provenance: {
      origin: ExportProvenanceSchema.shape.origin.parse(row.origin),
      run_id: row.run_id,
      model: row.model,
      split: row.split,
      table_hash: row.content_hash,
      model_answer: row.answer,
      model_question: row.question,
      edit: parseNullableJsonColumn(ExportProvenanceSchema.shape.edit, row.edit, { table: 'hqa_items', column: 'edit', id: row.id }),
      program: row.program,
      verifier: parseJsonColumn(ExportProvenanceSchema.shape.verifier, row.verifier, { table: 'hqa_items', column: 'verifier', id: row.id }),
      reviews: listItemReviews(db, row.id, true).map((r) => ({
        reviewer_id: r.reviewer_id,
        decision: r.decision,
        criteria: r.criteria,
        feedback: r.feedback,
        corrected_answer: r.corrected_answer,
        corrected_question: r.corrected_question,
        complexity: r.complexity,
        created_at: r.created_at,
      })),
    },
  };
}

/** Writes a chunk, waiting when the stream is full so memory stays flat. */
async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/**
 * Streams the accepted items (reviewers' corrections applied) in id order. `chart-hqa` is one
 * JSON document whose stats come first; `chartqa` is ChartQA's `[{imgname, query, label}]`;
 * `jsonl` is one item per line; `pairs` one ChartBench judgement pair per item that has one
 * (pairs-writer.ts). Returns the stats, the number of records written and, for `pairs`, what was skipped.
 */
export async function writeExport(
  db: Db,
  out: Writable,
  options: ExportOptions,
  now = new Date(),
): Promise<{ stats: ExportStats; items: number; pairs?: PairsSummary; skipped_group_items?: number }> {
  const stats = exportStats(db);
  // `pairs`: ChartBench judgement-pair records, JSON Lines; its module (and its NLP) loads only for it.
  const pairs = options.format === 'pairs' ? (await import('./pairs-writer')).createPairsWriter(db) : null;
  const lines = options.format === 'jsonl' || options.format === 'pairs';
  const shared = sharedImgnames(db);
  const charts = new Set<number>();
  // A group's charts are read once per export, however many of its items are accepted.
  const groups = new Map<number, ExportGroupChart[]>();
  const groupCharts = (groupId: number) => {
    let members = groups.get(groupId);
    if (!members) {
      members = exportGroupCharts(db, groupId);
      groups.set(groupId, members);
    }
    return members;
  };
  let count = 0;
  let skippedGroupItems = 0;
  if (options.format === 'chart-hqa') {
    await write(out, `{"name":${JSON.stringify(options.name)},"version":"${CHART_HQA_VERSION}","created_at":"${now.toISOString()}","stats":${JSON.stringify(stats)},"items":[`);
  } else if (options.format === 'chartqa') {
    await write(out, '[');
  }
  for (const row of iterateAccepted(db)) {
    const members = row.group_id === null ? null : groupCharts(row.group_id);
    // ChartQA's files name one image per question: an item over several charts has no place there.
    if (members && options.format === 'chartqa') {
      skippedGroupItems++;
      continue;
    }
    const item: ChartHqaItem = members ? toGroupExportItem(row, members, shared) : toExportItem(row, shared);
    const pair = pairs?.record(row, item);
    if (pair && 'skipped' in pair) continue;
    const record =
      pair ??
      (options.format === 'chartqa' && 'imgname' in item
        ? { imgname: item.imgname, query: item.question, label: item.answer }
        : options.full
          ? withProvenance(db, row, item)
          : options.line && options.format === 'jsonl'
            ? options.line(item)
            : item);
    const separator = lines ? '' : count === 0 ? '\n' : ',\n';
    await write(out, `${separator}${JSON.stringify(record)}${lines ? '\n' : ''}`);
    count++;
    if (options.onChart) {
      const itemCharts = members ? members.map((member) => ({ id: member.id, imgname: exportedName(member, shared) })) : [{ id: row.chart_id, imgname: exportedName(row, shared) }];
      for (const chart of itemCharts) {
        if (charts.has(chart.id)) continue;
        charts.add(chart.id);
        await options.onChart(chart);
      }
    }
  }
  if (options.format === 'chart-hqa') await write(out, '\n]}\n');
  else if (options.format === 'chartqa') await write(out, '\n]\n');
  return { stats, items: count, ...(pairs ? { pairs: pairs.summary() } : {}), ...(options.format === 'chartqa' ? { skipped_group_items: skippedGroupItems } : {}) };
}
