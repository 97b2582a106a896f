import type { Db } from '../../db/database';
import { parseJsonColumn, parseNullableJsonColumn } from '../../db/json-column';
import { statement } from '../../db/statements';
import type { ItemGroup } from '../../shared/api/item-group';
import type { ItemDetail, ItemSummary } from '../../shared/api/items';
import { ChartTypeSchema } from '../../shared/domain/chart-types';
import { ItemOriginSchema, ItemStatusSchema, QuestionRelationSchema, RequeueReasonSchema, type ItemOrigin, type QuestionRelation } from '../../shared/domain/generation';
import { BiasFlagSchema, type BiasFlag } from '../../shared/generation/bias-guards';
import { AnswerTypeSchema } from '../../shared/table/answers';
import { VerifierResultSchema, type VerifierResult } from '../../shared/table/verify';
import type { HqaItemDraft } from '../../shared/generation/item-draft';
import { z } from 'zod';
import type { DrawingStyle } from '../../shared/chart-spec/drawing-style';
import type { DataTable } from '../../shared/table/model';
import { ChartWithoutTableError } from '../charts/chart-queries';
import { cachedUnverifiableColours, parsedChart } from '../charts/parsed-chart-cache';
import { TableStateSchema } from '../../shared/table-provenance/table-state';
import { tableStateSql } from '../tables/table-state-queries';
import { shownStatusSql } from './shown-status-queries';
import { blindViews, type BlindViewer } from './blind-view-queries';
import { itemGroupView } from './item-group-queries';

/** All SQL of HQA items. */

/**
 * SQL condition: the item aliased `alias` speaks for its proposal (pass rate, retirement,
 * reflection). It must do what the proposal says (an item performing another operation judges
 * that one), and not be a reviewer's own hand-written item: else one reviewer could write items
 * on a proposal and reject them to retire it or steer its revision. Curators' items count.
 */
export function speaksForProposal(alias: string): string {
  return `${alias}.proposal_consistent IS NOT 0
    AND NOT (${alias}.origin = 'human' AND EXISTS (SELECT 1 FROM users author WHERE author.id = ${alias}.created_by AND author.role = 'reviewer'))`;
}

/**
 * SQL of an item's table state, for the item aliased `item`: its chart's (tableStateSql), or
 * for an item over a chart group the weakest of its members' — `none` when any member has no
 * table, `unconfirmed` when any member's table is not confirmed. The group's subquery finds no
 * rows for a single-chart item (HAVING), so the chart's state stands.
 */
export function itemTableStateSql(item: string): string {
  return `COALESCE(
    (SELECT CASE WHEN MIN(gc.data_table IS NOT NULL) = 0 THEN 'none' WHEN MIN(gc.table_confirmed) = 1 THEN 'confirmed' ELSE 'unconfirmed' END
       FROM factual_qas gq JOIN chart_group_members gm ON gm.group_id = gq.group_id JOIN charts gc ON gc.id = gm.chart_id
       WHERE gq.id = ${item}.qa_id HAVING COUNT(*) > 0),
    (SELECT ${tableStateSql('sc')} FROM charts sc WHERE sc.id = ${item}.chart_id))`;
}

interface ItemRow {
  id: number;
  qa_id: number;
  chart_id: number;
  imgname: string;
  chart_type: string;
  proposal_id: number | null;
  run_id: number | null;
  origin: string;
  model: string | null;
  question: string;
  answer: string;
  answer_type: string;
  affects_answer: number;
  verifier_match: number | null;
  bias_flags: string;
  question_relation: string | null;
  answer_unchanged: number | null;
  is_control: number;
  proposal_consistent: number | null;
  requeue_reason: string | null;
  status: string;
  created_at: string;
  table_state: string;
}

interface ItemDetailRow extends ItemRow {
  assumption: string;
  rationale: string;
  edit: string | null;
  program: string;
  verifier: string;
  final_answer: string | null;
  factual_query: string;
  factual_label: string;
  proposal_text: string | null;
  chart_table: string | null;
  chart_annotation: string | null;
  chart_has_image: number;
  chart_title: string | null;
  group_id: number | null;
}

const SUMMARY = `i.id, i.qa_id, i.chart_id, c.imgname, c.chart_type, i.proposal_id, i.run_id, i.origin, i.model, i.question, i.answer,
  i.answer_type, i.affects_answer, i.verifier_match, i.bias_flags, i.question_relation, i.answer_unchanged, i.is_control,
  i.proposal_consistent, i.requeue_reason, i.status, i.created_at, ${itemTableStateSql('i')} AS table_state`;
const FROM = 'FROM hqa_items i JOIN charts c ON c.id = i.chart_id';

const BiasFlagsSchema = z.array(BiasFlagSchema);

/**
 * An item's edit as it was written: the verifier may have refused it (its verdict says why), so
 * it stays unknown here and is validated where it is applied.
 */
export const StoredEditSchema = z.unknown();

function toSummary(row: ItemRow): ItemSummary {
  return {
    id: row.id,
    qa_id: row.qa_id,
    chart_id: row.chart_id,
    imgname: row.imgname,
    chart_type: ChartTypeSchema.parse(row.chart_type),
    proposal_id: row.proposal_id,
    run_id: row.run_id,
    origin: ItemOriginSchema.parse(row.origin),
    model: row.model,
    question: row.question,
    answer: row.answer,
    answer_type: AnswerTypeSchema.parse(row.answer_type),
    affects_answer: row.affects_answer === 1,
    verifier_match: row.verifier_match === null ? null : row.verifier_match === 1,
    bias_flags: parseJsonColumn(BiasFlagsSchema, row.bias_flags, { table: 'hqa_items', column: 'bias_flags', id: row.id }),
    question_relation: row.question_relation === null ? null : QuestionRelationSchema.parse(row.question_relation),
    answer_unchanged: nullableFlag(row.answer_unchanged),
    is_control: row.is_control === 1,
    proposal_consistent: nullableFlag(row.proposal_consistent),
    requeue_reason: row.requeue_reason === null ? null : RequeueReasonSchema.parse(row.requeue_reason),
    status: ItemStatusSchema.parse(row.status),
    created_at: row.created_at,
    table_state: TableStateSchema.parse(row.table_state),
  };
}

function nullableFlag(value: number | null): boolean | null {
  return value === null ? null : value === 1;
}

/** A nullable boolean as SQLite stores it. */
export function sqlFlag(value: boolean | null): number | null {
  return value === null ? null : value ? 1 : 0;
}

/**
 * The summary columns with the status as people are shown it (lists, the Item page): an item held
 * only as a reviewer's prefetched next item reads `pending`. Review and edits read the stored one.
 */
const SHOWN_SUMMARY = SUMMARY.replace('i.status,', `${shownStatusSql('i')} AS status,`);

/** An item as lists show it. */
export function getItemSummary(db: Db, id: number): ItemSummary | null {
  const row = statement(db, `SELECT ${SHOWN_SUMMARY} ${FROM} WHERE i.id = ?`).get(id) as ItemRow | undefined;
  return row ? toSummary(row) : null;
}

/** The item's chart as the item's own read parsed it: a review task shows it without reading it again. */
export interface ItemChart {
  title: string | null;
  data_table: DataTable;
  drawing_style: DrawingStyle | null;
  has_image: boolean;
}

export function getItemDetail(db: Db, id: number): ItemDetail | null {
  return getItemWithChart(db, id)?.item ?? null;
}

/**
 * An item with its group's charts (null for an item over one chart), as item pages show it (its
 * status as lists show it); to a reviewer (`viewer`), as they are shown it: blind review.
 */
export function getItemDetailWithGroup(db: Db, id: number, viewer: BlindViewer | null = null): { item: ItemDetail; group: ItemGroup | null } | null {
  const found = getItemWithChart(db, id);
  if (!found) return null;
  const group = found.groupId === null ? null : itemGroupView(db, found.groupId, found.item.edit);
  if (viewer !== null) {
    const blind = blindViews(db, viewer, [id]).get(id);
    return { item: { ...found.item, status: blind?.status ?? found.item.status, final_answer: blind ? blind.final_answer : found.item.final_answer }, group };
  }
  const shown = statement(db, `SELECT ${shownStatusSql('i')} AS status FROM hqa_items i WHERE i.id = ?`).get(id) as { status: string };
  return { item: { ...found.item, status: ItemStatusSchema.parse(shown.status) }, group };
}

/**
 * An item with its chart's table and drawing, parsed once: a claim used to parse the chart's
 * table (JSON and zod) twice, once for the item's colour check and once for the chart.
 */
export function getItemWithChart(db: Db, id: number): { item: ItemDetail; chart: ItemChart; groupId: number | null } | null {
  const row = statement(db,
      `SELECT ${SUMMARY}, i.assumption, i.rationale, i.edit, i.program, i.verifier, i.final_answer,
        q.query AS factual_query, q.label AS factual_label, q.group_id, p.text AS proposal_text,
        c.data_table AS chart_table, c.annotation AS chart_annotation, c.title AS chart_title,
        EXISTS (SELECT 1 FROM chart_images ci WHERE ci.chart_id = c.id) AS chart_has_image
       ${FROM} JOIN factual_qas q ON q.id = i.qa_id LEFT JOIN proposals p ON p.id = i.proposal_id WHERE i.id = ?`,
    )
    .get(id) as ItemDetailRow | undefined;
  if (!row) return null;
  // Items are made and verified on a table; one on a chart without one is a broken row, named.
  if (row.chart_table === null) throw new ChartWithoutTableError(row.chart_id, row.imgname);
  const { table, style } = parsedChart(row.chart_id, row.chart_table, row.chart_annotation);
  const drawn = { has_image: row.chart_has_image === 1, style };
  // The summary's object, extended: in V8 11 (Node 20) `{ ...summary, more }` gave every item a
  // shape of its own, which outlived it: 4 MB promoted per young-generation collection on the
  // review hot path, each a 5-20 ms pause (test/integration/object-shapes.test.ts).
  const item: ItemDetail = Object.assign(toSummary(row), {
    assumption: row.assumption,
    rationale: row.rationale,
    edit: parseNullableJsonColumn(StoredEditSchema, row.edit, { table: 'hqa_items', column: 'edit', id: row.id }),
    program: row.program,
    verifier: parseJsonColumn(VerifierResultSchema, row.verifier, { table: 'hqa_items', column: 'verifier', id: row.id }),
    final_answer: row.final_answer,
    factual_query: row.factual_query,
    factual_label: row.factual_label,
    proposal_text: row.proposal_text,
    unverifiable_colours: [...cachedUnverifiableColours([row.factual_query, row.question], table, drawn)],
  });
  return { item, chart: { title: row.chart_title, data_table: table, drawing_style: drawn.style, has_image: drawn.has_image }, groupId: row.group_id };
}

export interface ItemInsert {
  qaId: number;
  chartId: number;
  proposalId: number | null;
  runId: number | null;
  origin: ItemOrigin;
  model: string | null;
  createdBy: number | null;
  draft: Omit<HqaItemDraft, 'edit'> & { edit: HqaItemDraft['edit'] | null };
  verifier: VerifierResult;
  biasFlags: BiasFlag[];
  idempotencyKey: string | null;
  questionRelation: QuestionRelation;
  isControl: boolean;
}

/** Inserts an item; returns null when its idempotency key already made one. */
export function insertItem(db: Db, item: ItemInsert): number | null {
  const result = statement(db,
      `INSERT OR IGNORE INTO hqa_items (qa_id, chart_id, proposal_id, run_id, origin, model, created_by, assumption, question, answer,
        answer_type, rationale, affects_answer, edit, program, verifier, verifier_match, bias_flags, idempotency_key,
        question_relation, answer_unchanged, is_control, proposal_consistent)
       VALUES (@qa_id, @chart_id, @proposal_id, @run_id, @origin, @model, @created_by, @assumption, @question, @answer,
        @answer_type, @rationale, @affects_answer, @edit, @program, @verifier, @verifier_match, @bias_flags, @idempotency_key,
        @question_relation, @answer_unchanged, @is_control, @proposal_consistent)`,
    )
    .run({
      qa_id: item.qaId,
      chart_id: item.chartId,
      proposal_id: item.proposalId,
      run_id: item.runId,
      origin: item.origin,
      model: item.model,
      created_by: item.createdBy,
      assumption: item.draft.assumption,
      question: item.draft.question,
      answer: item.draft.answer,
      answer_type: item.draft.answer_type,
      rationale: item.draft.rationale,
      affects_answer: item.draft.affects_answer ? 1 : 0,
      edit: item.draft.edit === null ? null : JSON.stringify(item.draft.edit),
      program: item.draft.program,
      verifier: JSON.stringify(item.verifier),
      verifier_match: item.verifier.match === null ? null : item.verifier.match ? 1 : 0,
      bias_flags: JSON.stringify(item.biasFlags),
      idempotency_key: item.idempotencyKey,
      question_relation: item.questionRelation,
      answer_unchanged: sqlFlag(item.verifier.answer_unchanged),
      is_control: item.isControl ? 1 : 0,
      proposal_consistent: sqlFlag(item.verifier.proposal_consistent),
    });
  return result.changes === 0 ? null : Number(result.lastInsertRowid);
}

/** Items not classified yet (made before the question relation existed), oldest first. */
export function unclassifiedItems(db: Db, limit: number): { id: number; question: string; assumption: string; factual_query: string }[] {
  return statement(db,
      `SELECT i.id, i.question, i.assumption, q.query AS factual_query FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id
       WHERE i.question_relation IS NULL ORDER BY i.id LIMIT ?`,
    )
    .all(limit) as { id: number; question: string; assumption: string; factual_query: string }[];
}

export function setQuestionRelations(db: Db, items: readonly { id: number; relation: QuestionRelation }[]): void {
  const update = statement(db, 'UPDATE hqa_items SET question_relation = ? WHERE id = ?');
  for (const item of items) update.run(item.relation, item.id);
}

/** The texts the question relation is read from: the final question (a correction) or the model's. */
export function itemQuestionTexts(db: Db, itemId: number): { question: string; assumption: string; factual_query: string } | null {
  const row = statement(db,
      `SELECT COALESCE(i.final_question, i.question) AS question, i.assumption, q.query AS factual_query
       FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id WHERE i.id = ?`,
    )
    .get(itemId) as { question: string; assumption: string; factual_query: string } | undefined;
  return row ?? null;
}

/** The assumptions of a QA's rejected items: generation never writes one of them again. */
export function rejectedAssumptions(db: Db, qaId: number): string[] {
  return (statement(db, `SELECT assumption FROM hqa_items WHERE qa_id = ? AND status = 'rejected'`).all(qaId) as { assumption: string }[]).map((row) => row.assumption);
}
