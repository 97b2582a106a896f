import { NOT_RETIRED } from '../review/review-queries';
import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { ExportStats } from '../../shared/export/chart-hqa';
import { roundedPercent } from '../../shared/eval/metrics';
import { classifyAnswer } from '../../shared/table/answers';
import { itemTableStateSql } from '../items/item-queries';

/** All SQL of the export: accepted items in id order, streamed, and the Table 2 figures. */

export interface ExportRow {
  id: number;
  imgname: string;
  split: string;
  chart_id: number;
  chart_type: string;
  content_hash: string;
  assumption: string;
  question: string;
  final_question: string | null;
  answer: string;
  final_answer: string | null;
  answer_type: string;
  affects_answer: number;
  /** NULL for an item never classified. */
  question_relation: string | null;
  is_control: number;
  query: string;
  label: string;
  source: string;
  proposal_id: number | null;
  proposal_text: string | null;
  origin: string;
  run_id: number | null;
  model: string | null;
  edit: string | null;
  program: string;
  verifier: string;
  accepts: number;
  rejects: number;
  adjudicated: number;
  /** 1 when the verification's tables are all confirmed (the chart's; for a group item, every member's). */
  table_confirmed: number;
  /** The chart group the item's factual question spans; null for an item over one chart. */
  group_id: number | null;
}

/**
 * An item the benchmark holds: accepted and not retired by a curator (migration 021: retiring
 * takes an item out of the dataset, and so out of evaluation, without deleting its decisions).
 */
const IN_BENCHMARK = `i.status = 'accepted' AND ${NOT_RETIRED}`;

/** Charts of exported items: each item's chart and, for an item over a group, every chart of its group. */
const ACCEPTED_CHART_IDS = `SELECT i.chart_id FROM hqa_items i WHERE ${IN_BENCHMARK}
  UNION SELECT m.chart_id FROM hqa_items i JOIN factual_qas aq ON aq.id = i.qa_id JOIN chart_group_members m ON m.group_id = aq.group_id
  WHERE ${IN_BENCHMARK}`;

const ACCEPTED = `FROM hqa_items i JOIN charts c ON c.id = i.chart_id JOIN factual_qas q ON q.id = i.qa_id
  LEFT JOIN proposals p ON p.id = i.proposal_id WHERE ${IN_BENCHMARK}`;

/** Rows per page: large enough to amortise the query, small enough to keep memory flat. */
const EXPORT_PAGE = 1000;

/**
 * Accepted items in id order, a page at a time (keyset paging). Not a statement iterator: the
 * connection stays free for the per-item queries of `--full` and `--images` in between.
 */
export function* iterateAccepted(db: Db): Generator<ExportRow> {
  const page = statement(db,
    `SELECT i.id, c.imgname, c.split, c.id AS chart_id, c.chart_type, c.content_hash, i.assumption, i.question, i.final_question, i.answer,
      i.final_answer, i.answer_type, i.affects_answer, i.question_relation, i.is_control, q.query, q.label, q.source, i.proposal_id, p.text AS proposal_text, i.origin,
      i.run_id, i.model, i.edit, i.program, i.verifier, (${itemTableStateSql('i')} = 'confirmed') AS table_confirmed, q.group_id,
      (SELECT COUNT(*) FROM reviews r WHERE r.item_id = i.id AND r.retracted_at IS NULL AND r.decision = 'accept') AS accepts,
      (SELECT COUNT(*) FROM reviews r WHERE r.item_id = i.id AND r.retracted_at IS NULL AND r.decision = 'reject') AS rejects,
      EXISTS (SELECT 1 FROM adjudications a WHERE a.item_id = i.id) AS adjudicated
     ${ACCEPTED} AND i.id > ? ORDER BY i.id LIMIT ${EXPORT_PAGE}`,
  );
  let after = 0;
  for (;;) {
    const rows = page.all(after) as ExportRow[];
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_PAGE) return;
    after = last.id;
  }
}

/**
 * Image names that two exported charts share (the same file name in two splits): their items
 * are exported as `split/imgname`, so `--images` writes each chart to its own file.
 */
export function sharedImgnames(db: Db): Set<string> {
  const rows = statement(db,
      `SELECT c.imgname FROM charts c WHERE c.id IN (${ACCEPTED_CHART_IDS})
       GROUP BY c.imgname HAVING COUNT(*) > 1`,
    )
    .all() as { imgname: string }[];
  return new Set(rows.map((row) => row.imgname));
}

/** The paper's Table 2 over the accepted items, computed in SQL (one pass, no rows in memory). */
export function exportStats(db: Db): ExportStats {
  const row = statement(db,
      `SELECT COUNT(*) AS questions, COUNT(DISTINCT i.proposal_id) AS proposals, (SELECT COUNT(*) FROM (${ACCEPTED_CHART_IDS})) AS charts,
        SUM(i.final_answer IS NULL AND i.answer_type = 'integer') AS integer_n, SUM(i.final_answer IS NULL AND i.answer_type = 'decimal') AS decimal_n,
        SUM(i.final_answer IS NULL AND i.answer_type = 'boolean') AS boolean_n, SUM(i.final_answer IS NULL AND i.answer_type = 'text') AS text_n,
        AVG(LENGTH(COALESCE(i.final_question, i.question))) AS q_chars, AVG(LENGTH(i.assumption)) AS a_chars,
        AVG(LENGTH(COALESCE(i.final_answer, i.answer))) AS ans_chars,
        COALESCE(SUM(i.question_relation = 'same'), 0) AS same_question, COALESCE(SUM(i.is_control), 0) AS controls,
        COALESCE(SUM(${itemTableStateSql('i')} != 'confirmed'), 0) AS table_unconfirmed
       FROM hqa_items i WHERE ${IN_BENCHMARK}`,
    )
    .get() as {
    questions: number;
    proposals: number;
    charts: number;
    integer_n: number | null;
    decimal_n: number | null;
    boolean_n: number | null;
    text_n: number | null;
    q_chars: number | null;
    a_chars: number | null;
    ans_chars: number | null;
    same_question: number;
    controls: number;
    table_unconfirmed: number;
  };
  const decided = statement(db, "SELECT SUM(status = 'accepted') AS accepted, COUNT(*) AS decided FROM hqa_items WHERE status IN ('accepted', 'rejected')").get() as {
    accepted: number | null;
    decided: number;
  };
  const round2 = (n: number | null) => Math.round((n ?? 0) * 100) / 100;
  const answerTypes = { integer: row.integer_n ?? 0, decimal: row.decimal_n ?? 0, boolean: row.boolean_n ?? 0, text: row.text_n ?? 0 };
  // A corrected answer's type is that of the correction (few rows: classified here).
  for (const corrected of statement(db, `SELECT i.final_answer FROM hqa_items i WHERE ${IN_BENCHMARK} AND i.final_answer IS NOT NULL`).all() as { final_answer: string }[]) {
    answerTypes[classifyAnswer(corrected.final_answer)]++;
  }
  return {
    questions: row.questions,
    proposals: row.proposals,
    charts: row.charts,
    answer_types: answerTypes,
    avg_chars: { question: round2(row.q_chars), assumption: round2(row.a_chars), answer: round2(row.ans_chars) },
    pass_rate: roundedPercent(decided.accepted ?? 0, decided.decided),
    same_question: row.same_question,
    controls: row.controls,
    table_unconfirmed: row.table_unconfirmed,
  };
}

/** A group's charts in position order, as the export names their images. */
export interface ExportGroupChart {
  id: number;
  imgname: string;
  split: string;
  chart_type: string;
}

export function exportGroupCharts(db: Db, groupId: number): ExportGroupChart[] {
  return statement(db,
    `SELECT c.id, c.imgname, c.split, c.chart_type FROM chart_group_members m JOIN charts c ON c.id = m.chart_id
     WHERE m.group_id = ? ORDER BY m.position`,
  ).all(groupId) as ExportGroupChart[];
}

/** Why an export may be empty: items in all, items with a review in, and how the decided ones went. */
export interface ReviewProgress {
  items: number;
  reviewed: number;
  accepted: number;
  rejected: number;
  adjudication: number;
}

export function reviewProgress(db: Db): ReviewProgress {
  const row = statement(db,
    `SELECT COUNT(*) AS items,
       COALESCE(SUM(EXISTS (SELECT 1 FROM reviews r WHERE r.item_id = i.id AND r.retracted_at IS NULL) OR i.status IN ('accepted', 'rejected', 'needs_adjudication')), 0) AS reviewed,
       COALESCE(SUM(i.status = 'accepted'), 0) AS accepted, COALESCE(SUM(i.status = 'rejected'), 0) AS rejected,
       COALESCE(SUM(i.status = 'needs_adjudication'), 0) AS adjudication
     FROM hqa_items i`,
  ).get() as ReviewProgress;
  return row;
}

/** Whether any accepted, unretired item exists: one indexed lookup, the common case of an export. */
export function hasExportableItems(db: Db): boolean {
  const row = statement(db, `SELECT EXISTS (SELECT 1 FROM hqa_items i WHERE i.status = 'accepted' AND ${NOT_RETIRED}) AS any`).get() as { any: number };
  return row.any === 1;
}
