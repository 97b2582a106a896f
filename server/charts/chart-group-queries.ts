import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { DrawingStyle } from '../../shared/chart-spec/drawing-style';
import { ChartTypeSchema, type ChartType } from '../../shared/domain/chart-types';
import type { DataTable } from '../../shared/table/model';
import { parsedChart } from './parsed-chart-cache';

/** SQL of chart groups as items use them (the importer writes groups: server/import/benchmark-queries.ts). */

/** One chart of a group, in the group's order, with what generation, verification and review need. */
export interface GroupMember {
  /** 1-based: the order the group's questions address its charts in ("the second chart"). */
  position: number;
  id: number;
  split: string;
  imgname: string;
  title: string | null;
  chart_type: ChartType;
  /** Null for a chart known only by its image. */
  table: DataTable | null;
  table_confirmed: boolean;
  has_image: boolean;
  /** The annotation's colours and series order for the item page's drawing; null without a table or annotation. */
  drawing_style: DrawingStyle | null;
}

export interface ChartGroup {
  id: number;
  split: string;
  name: string;
  members: GroupMember[];
}

interface MemberRow {
  position: number;
  id: number;
  split: string;
  imgname: string;
  title: string | null;
  chart_type: string;
  data_table: string | null;
  annotation: string | null;
  table_confirmed: number;
  has_image: number;
}

/** The group with its charts in position order, or null for an unknown id. */
export function loadChartGroup(db: Db, groupId: number): ChartGroup | null {
  const group = statement(db, 'SELECT id, split, name FROM chart_groups WHERE id = ?').get(groupId) as { id: number; split: string; name: string } | undefined;
  if (!group) return null;
  return { ...group, members: groupMembers(db, groupId) };
}

/**
 * The group's charts in position order (none for an unknown or empty group), each table and
 * drawing style parsed once by the parsed-chart cache: the one member query of generation,
 * verification, the Groups page and the item page's group view.
 */
export function groupMembers(db: Db, groupId: number): GroupMember[] {
  const rows = statement(db,
      `SELECT m.position, c.id, c.split, c.imgname, c.title, c.chart_type, c.data_table, c.annotation, c.table_confirmed,
         EXISTS (SELECT 1 FROM chart_images i WHERE i.chart_id = c.id) AS has_image
       FROM chart_group_members m JOIN charts c ON c.id = m.chart_id
       WHERE m.group_id = ? ORDER BY m.position`,
    )
    .all(groupId) as MemberRow[];
  return rows.map((row) => {
    const parsed = row.data_table === null ? null : parsedChart(row.id, row.data_table, row.annotation);
    return {
      position: row.position,
      id: row.id,
      split: row.split,
      imgname: row.imgname,
      title: row.title,
      chart_type: ChartTypeSchema.parse(row.chart_type),
      table: parsed?.table ?? null,
      table_confirmed: row.table_confirmed === 1,
      has_image: row.has_image === 1,
      drawing_style: parsed?.style ?? null,
    };
  });
}

/** The group's chart ids in position order (none for an unknown group): what a change to it tells clients to refetch. */
export function groupChartIds(db: Db, groupId: number): number[] {
  return (statement(db, 'SELECT chart_id FROM chart_group_members WHERE group_id = ? ORDER BY position').all(groupId) as { chart_id: number }[]).map((row) => row.chart_id);
}

/** The group a factual question spans, or null for a question over one chart. */
export function groupIdOfQa(db: Db, qaId: number): number | null {
  const row = statement(db, 'SELECT group_id FROM factual_qas WHERE id = ?').get(qaId) as { group_id: number | null } | undefined;
  return row?.group_id ?? null;
}

// --- Curators' groups (server/charts/chart-group-service.ts) ------------------------------

export interface GroupSummaryRow {
  id: number;
  split: string;
  name: string;
  source: 'multichartqa' | 'curator';
  created_at: string;
  question_count: number;
  item_count: number;
  /** JSON array of the members in position order. */
  members: string;
}

/** Questions and items over a group, counted where they are stored (items reach a group through their question). */
const SUMMARY_SELECT = `SELECT g.id, g.split, g.name, g.source, g.created_at,
    (SELECT COUNT(*) FROM factual_qas q WHERE q.group_id = g.id) AS question_count,
    (SELECT COUNT(*) FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id WHERE q.group_id = g.id) AS item_count,
    (SELECT json_group_array(json_object('position', m.position, 'chart_id', c.id, 'imgname', c.imgname, 'title', c.title, 'chart_type', c.chart_type))
       FROM (SELECT * FROM chart_group_members WHERE group_id = g.id ORDER BY position) m JOIN charts c ON c.id = m.chart_id) AS members
  FROM chart_groups g`;

export interface GroupListFilter {
  split?: string | undefined;
  source?: 'multichartqa' | 'curator' | undefined;
  limit: number;
  offset: number;
}

/** A page of groups, newest first, with the total the filter matches. */
export function listGroupRows(db: Db, filter: GroupListFilter): { rows: GroupSummaryRow[]; total: number } {
  const where = 'WHERE (@split IS NULL OR g.split = @split) AND (@source IS NULL OR g.source = @source)';
  const params = { split: filter.split ?? null, source: filter.source ?? null };
  const rows = statement(db, `${SUMMARY_SELECT} ${where} ORDER BY g.id DESC LIMIT @limit OFFSET @offset`).all({ ...params, limit: filter.limit, offset: filter.offset }) as GroupSummaryRow[];
  const { n } = statement(db, `SELECT COUNT(*) AS n FROM chart_groups g ${where}`).get(params) as { n: number };
  return { rows, total: n };
}

export function groupSummaryRow(db: Db, groupId: number): GroupSummaryRow | null {
  return (statement(db, `${SUMMARY_SELECT} WHERE g.id = ?`).get(groupId) as GroupSummaryRow | undefined) ?? null;
}

/** What creating a group needs to know of each chart asked for: whether it exists, and its split. */
export function chartSplits(db: Db, chartIds: readonly number[]): Map<number, { split: string; imgname: string }> {
  const found = new Map<number, { split: string; imgname: string }>();
  const get = statement(db, 'SELECT split, imgname FROM charts WHERE id = ?');
  for (const id of chartIds) {
    const row = get.get(id) as { split: string; imgname: string } | undefined;
    if (row) found.set(id, row);
  }
  return found;
}

/** The group of `split` already called `name` (compared without case), other than `exceptId`. */
export function groupNamed(db: Db, split: string, name: string, exceptId: number | null): { id: number; name: string } | null {
  const row = statement(db, 'SELECT id, name FROM chart_groups WHERE split = ? AND lower(name) = lower(?) AND id IS NOT ? LIMIT 1').get(split, name, exceptId) as
    | { id: number; name: string }
    | undefined;
  return row ?? null;
}

/** A curator's group: its key is fixed at creation (a rename changes only the name). */
export function insertCuratorGroup(db: Db, group: { split: string; key: string; name: string }): number {
  return Number(statement(db, "INSERT INTO chart_groups (split, group_key, name, source) VALUES (?, ?, ?, 'curator')").run(group.split, group.key, group.name).lastInsertRowid);
}

/** The group's members, replaced by these charts at positions 1..n. */
export function setGroupMembers(db: Db, groupId: number, chartIds: readonly number[]): void {
  statement(db, 'DELETE FROM chart_group_members WHERE group_id = ?').run(groupId);
  const insert = statement(db, 'INSERT INTO chart_group_members (group_id, chart_id, position) VALUES (?, ?, ?)');
  chartIds.forEach((chartId, index) => insert.run(groupId, chartId, index + 1));
}

export function renameGroup(db: Db, groupId: number, name: string): void {
  statement(db, 'UPDATE chart_groups SET name = ? WHERE id = ?').run(name, groupId);
}

export interface GroupQuestionRow {
  id: number;
  query: string;
  label: string;
  source: string;
  answer_kind: string;
  item_count: number;
}

export function groupQuestionRows(db: Db, groupId: number): GroupQuestionRow[] {
  return statement(db, `SELECT q.id, q.query, q.label, q.source, q.answer_kind, (SELECT COUNT(*) FROM hqa_items i WHERE i.qa_id = q.id) AS item_count
      FROM factual_qas q WHERE q.group_id = ? ORDER BY q.id`).all(groupId) as GroupQuestionRow[];
}

/** The same question (text and label) already asked over the group, compared without case. */
export function sameGroupQuestion(db: Db, groupId: number, query: string, label: string): number | null {
  const row = statement(db, 'SELECT id FROM factual_qas WHERE group_id = ? AND lower(query) = lower(?) AND label = ? LIMIT 1').get(groupId, query, label) as { id: number } | undefined;
  return row?.id ?? null;
}

/** A curator's question over the group, stored on its first chart (as the MultiChartQA importer stores them). */
export function insertGroupQuestion(db: Db, question: { groupId: number; chartId: number; query: string; label: string; answerKind: string }): number {
  return Number(
    statement(db, "INSERT INTO factual_qas (chart_id, query, label, source, answer_kind, group_id) VALUES (@chartId, @query, @label, 'human', @answerKind, @groupId)").run(question)
      .lastInsertRowid,
  );
}

/** What would be lost with the group: items over its questions, and run tasks planned on them. */
export function groupDependents(db: Db, groupId: number): { items: number; tasks: number } {
  return statement(db, `SELECT
      (SELECT COUNT(*) FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id WHERE q.group_id = @id) AS items,
      (SELECT COUNT(*) FROM run_tasks t JOIN factual_qas q ON q.id = t.qa_id WHERE q.group_id = @id) AS tasks`).get({ id: groupId }) as { items: number; tasks: number };
}

/** Deletes the group, its members and its questions (the caller checked nothing depends on them); the questions deleted. */
export function deleteGroup(db: Db, groupId: number): number {
  const questions = statement(db, 'DELETE FROM factual_qas WHERE group_id = ?').run(groupId).changes;
  statement(db, 'DELETE FROM chart_group_members WHERE group_id = ?').run(groupId);
  statement(db, 'DELETE FROM chart_groups WHERE id = ?').run(groupId);
  return questions;
}
