import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Db } from '../../db/database';
import { parseJsonColumn, parseNullableJsonColumn } from '../../db/json-column';
import { CHART_HQA_VERSION, exportItemId, ExportProvenanceSchema, type ExportFormat, type ExportItem, type ExportItemFull, type ExportStats } from '../../shared/export/chart-hqa';
import { ChartTypeSchema } from '../../shared/domain/chart-types';
import { QuestionRelationSchema } from '../../shared/domain/generation';
import { QaSourceSchema } from '../../shared/domain/qa';
import { AnswerTypeSchema, classifyAnswer } from '../../shared/table/answers';
import { listItemReviews } from '../review/review-queries';
import { exportStats, iterateAccepted, sharedImgnames, type ExportRow } from './export-queries';
import type { PairsSummary } from './pairs-writer';

export interface ExportOptions {
  format: ExportFormat;
  name: string;
  /** Add provenance for audits (chart-hqa and jsonl only). */
  full: boolean;
  /** Called once per chart of the export, for writing images beside it (`imgname` as the items name it, maybe `split/name`). */
  onChart?: (chart: { id: number; imgname: string }) => Promise<void> | void;
  /** `jsonl` only: the record written for an item, in place of the item (hf-dataset adds its image's file). */
  line?: (item: ExportItem) => object;
}

/** An accepted item as every export shows it: reviewers' corrections applied. */
export function toExportItem(row: ExportRow, shared: ReadonlySet<string> = new Set()): ExportItem {
  const answer = row.final_answer ?? row.answer;
  return {
    id: exportItemId(row.id),
    imgname: shared.has(row.imgname) ? `${row.split}/${row.imgname}` : row.imgname,
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

function withProvenance(db: Db, row: ExportRow, item: ExportItem): ExportItemFull {
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
export async function writeExport(db: Db, out: Writable, options: ExportOptions, now = new Date()): Promise<{ stats: ExportStats; items: number; pairs?: PairsSummary }> {
  const stats = exportStats(db);
  // `pairs`: ChartBench judgement-pair records, JSON Lines; its module (and its NLP) loads only for it.
  const pairs = options.format === 'pairs' ? (await import('./pairs-writer')).createPairsWriter(db) : null;
  const lines = options.format === 'jsonl' || options.format === 'pairs';
  const shared = sharedImgnames(db);
  const charts = new Set<number>();
  let count = 0;
  if (options.format === 'chart-hqa') {
    await write(out, `{"name":${JSON.stringify(options.name)},"version":"${CHART_HQA_VERSION}","created_at":"${now.toISOString()}","stats":${JSON.stringify(stats)},"items":[`);
  } else if (options.format === 'chartqa') {
    await write(out, '[');
  }
  for (const row of iterateAccepted(db)) {
    const item = toExportItem(row, shared);
    const pair = pairs?.record(row, item);
    if (pair && 'skipped' in pair) continue;
    const record =
      pair ??
      (options.format === 'chartqa'
        ? { imgname: item.imgname, query: item.question, label: item.answer }
        : options.full
          ? withProvenance(db, row, item)
          : options.line && options.format === 'jsonl'
            ? options.line(item)
            : item);
    const separator = lines ? '' : count === 0 ? '\n' : ',\n';
    await write(out, `${separator}${JSON.stringify(record)}${lines ? '\n' : ''}`);
    count++;
    if (options.onChart && !charts.has(row.chart_id)) {
      charts.add(row.chart_id);
      await options.onChart({ id: row.chart_id, imgname: item.imgname });
    }
  }
  if (options.format === 'chart-hqa') await write(out, '\n]}\n');
  else if (options.format === 'chartqa') await write(out, '\n]\n');
  return { stats, items: count, ...(pairs ? { pairs: pairs.summary() } : {}) };
}
