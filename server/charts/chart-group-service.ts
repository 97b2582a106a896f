import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import type {
  AddGroupQuestionRequestSchema,
  ChartGroupDetailResponse,
  ChartGroupListQuery,
  ChartGroupListResponse,
  ChartGroupSummary,
  CreateChartGroupRequestSchema,
  GroupQuestion,
  UpdateChartGroupRequestSchema,
} from '../../shared/api/chart-groups';
import { GroupMemberSchema } from '../../shared/api/chart-groups';
import { AnswerKindSchema, ChartGroupSourceSchema } from '../../shared/domain/benchmark-fields';
import { QaSourceSchema } from '../../shared/domain/qa';
import type { z } from 'zod';
import { immediateTransaction } from '../../db/transactions';
import type { DomainEventEmitter } from '../events/event-bus';
import { DomainError } from '../domain-error';
import { numberOrText } from '../../shared/domain/answer-kind';
import {
  chartSplits,
  deleteGroup,
  groupDependents,
  groupNamed,
  groupQuestionRows,
  groupSummaryRow,
  insertCuratorGroup,
  insertGroupQuestion,
  listGroupRows,
  loadChartGroup,
  renameGroup,
  sameGroupQuestion,
  setGroupMembers,
  type GroupQuestionRow,
  type GroupSummaryRow,
} from './chart-group-queries';

/**
 * Chart groups as curators make and keep them. Every write is one transaction with its audit
 * entry; a refusal names the chart, the field or what depends on the group.
 */

const CODE = { not_found: 'not_found', invalid: 'bad_request', conflict: 'conflict' } as const;

export class ChartGroupError extends DomainError {
  constructor(
    readonly reason: keyof typeof CODE,
    message: string,
    /** The body field at fault (`chart_ids.1`, `name`): the error's field names it as validation names body fields (`body.chart_ids.1`), for the form to mark. */
    bodyField?: string,
  ) {
    super(CODE[reason], message, bodyField === undefined ? undefined : `body.${bodyField}`);
  }
}

type CreateInput = z.output<typeof CreateChartGroupRequestSchema>;
type UpdateInput = z.output<typeof UpdateChartGroupRequestSchema>;
type QuestionInput = z.output<typeof AddGroupQuestionRequestSchema>;

const MembersSchema = GroupMemberSchema.array();

function summaryOf(row: GroupSummaryRow): ChartGroupSummary {
  return {
    id: row.id,
    split: row.split,
    name: row.name,
    source: ChartGroupSourceSchema.parse(row.source),
    members: MembersSchema.parse(JSON.parse(row.members)),
    question_count: row.question_count,
    item_count: row.item_count,
    created_at: row.created_at,
  };
}

function questionOf(row: GroupQuestionRow): GroupQuestion {
  return { ...row, source: QaSourceSchema.parse(row.source), answer_kind: AnswerKindSchema.parse(row.answer_kind) };
}

function summaryOrThrow(db: Db, groupId: number): ChartGroupSummary {
  const row = groupSummaryRow(db, groupId);
  if (!row) throw new ChartGroupError('not_found', `chart group ${groupId} not found`);
  return summaryOf(row);
}

export function listChartGroups(db: Db, query: ChartGroupListQuery): ChartGroupListResponse {
  const { rows, total } = listGroupRows(db, { split: query.split, source: query.source, limit: query.page_size, offset: (query.page - 1) * query.page_size });
  return { groups: rows.map(summaryOf), total, page: query.page, page_size: query.page_size };
}

/** The group with its charts side by side (each with its table, or none yet) and its questions. */
export function chartGroupDetail(db: Db, groupId: number): ChartGroupDetailResponse {
  const group = summaryOrThrow(db, groupId);
  const loaded = loadChartGroup(db, groupId);
  const charts = (loaded?.members ?? []).map((member) => ({
    position: member.position,
    chart_id: member.id,
    imgname: member.imgname,
    title: member.title,
    chart_type: member.chart_type,
    data_table: member.table,
    table_confirmed: member.table_confirmed,
    has_image: member.has_image,
  }));
  return { group, charts, questions: groupQuestionRows(db, groupId).map(questionOf) };
}

/** Every chart exists and all are of one split (a group's questions are that split's); the split. */
function checkCharts(db: Db, chartIds: readonly number[]): string {
  const found = chartSplits(db, chartIds);
  chartIds.forEach((id, index) => {
    if (!found.has(id)) throw new ChartGroupError('invalid', `chart ${id} not found`, `chart_ids.${index}`);
  });
  const first = found.get(chartIds[0] as number) as { split: string; imgname: string };
  chartIds.forEach((id, index) => {
    const chart = found.get(id) as { split: string; imgname: string };
    if (chart.split !== first.split) {
      throw new ChartGroupError(
        'invalid',
        `chart ${id} (${chart.split}/${chart.imgname}) is in split "${chart.split}", chart ${chartIds[0]} (${first.split}/${first.imgname}) in "${first.split}": a group's charts share one split`,
        `chart_ids.${index}`,
      );
    }
  });
  return first.split;
}

function checkNameFree(db: Db, split: string, name: string, exceptId: number | null): void {
  const taken = groupNamed(db, split, name, exceptId);
  if (taken) throw new ChartGroupError('conflict', `split "${split}" already has a group named "${taken.name}" (group ${taken.id})`, 'name');
}

export function createChartGroup(db: Db, events: DomainEventEmitter, input: CreateInput, actorId: number): ChartGroupSummary {
  return immediateTransaction(db, () => {
    const split = checkCharts(db, input.chart_ids);
    checkNameFree(db, split, input.name, null);
    // The key is the group's identity in its split; a curator's is never reused, whatever it is renamed to.
    const groupId = insertCuratorGroup(db, { split, key: `curator:${randomUUID()}`, name: input.name });
    setGroupMembers(db, groupId, input.chart_ids);
    events.emit('chart_group.created', { actor_id: actorId, group_id: groupId, split, name: input.name, chart_ids: input.chart_ids });
    return summaryOrThrow(db, groupId);
  });
}

/**
 * Renames or reorders a group. Reordering keeps the same charts (adding or removing one makes
 * another group) and is refused for a MultiChartQA group (its files fix the order) and for a
 * group with questions, which name its charts by position.
 */
export function updateChartGroup(db: Db, events: DomainEventEmitter, groupId: number, input: UpdateInput, actorId: number): ChartGroupSummary {
  return immediateTransaction(db, () => {
    const group = summaryOrThrow(db, groupId);
    const changes: { name?: { before: string; after: string }; chart_ids?: { before: number[]; after: number[] } } = {};
    if (input.name !== undefined && input.name !== group.name) {
      checkNameFree(db, group.split, input.name, groupId);
      renameGroup(db, groupId, input.name);
      changes.name = { before: group.name, after: input.name };
    }
    const current = group.members.map((m) => m.chart_id);
    if (input.chart_ids !== undefined && input.chart_ids.join(',') !== current.join(',')) {
      if (group.source !== 'curator') throw new ChartGroupError('conflict', `group "${group.name}" comes from MultiChartQA: its charts and their order are the benchmark's`, 'chart_ids');
      const same = input.chart_ids.length === current.length && input.chart_ids.every((id) => current.includes(id));
      if (!same) throw new ChartGroupError('invalid', `reordering keeps the group's charts (${current.join(', ')}); make a new group for other charts`, 'chart_ids');
      if (group.question_count > 0) {
        throw new ChartGroupError('conflict', `group "${group.name}" has ${group.question_count} question(s) that name its charts by position: its order stays`, 'chart_ids');
      }
      setGroupMembers(db, groupId, input.chart_ids);
      changes.chart_ids = { before: current, after: input.chart_ids };
    }
    if (Object.keys(changes).length > 0) events.emit('chart_group.edited', { actor_id: actorId, group_id: groupId, changes });
    return summaryOrThrow(db, groupId);
  });
}

/** A factual question over the group (on its first chart), its answer kind as the importer classifies it. */
export function addGroupQuestion(db: Db, events: DomainEventEmitter, groupId: number, input: QuestionInput, actorId: number): GroupQuestion {
  return immediateTransaction(db, () => {
    const group = summaryOrThrow(db, groupId);
    const first = group.members[0];
    if (!first) throw new ChartGroupError('conflict', `group "${group.name}" has no charts`);
    const existing = sameGroupQuestion(db, groupId, input.query, input.label);
    if (existing !== null) throw new ChartGroupError('conflict', `group "${group.name}" already asks this question with this answer (question ${existing})`, 'query');
    const id = insertGroupQuestion(db, { groupId, chartId: first.chart_id, query: input.query, label: input.label, answerKind: numberOrText(input.label) });
    events.emit('chart_group.question_added', { actor_id: actorId, group_id: groupId, qa_id: id, query: input.query, label: input.label });
    const row = groupQuestionRows(db, groupId).find((q) => q.id === id);
    if (!row) throw new Error(`question ${id} of group ${groupId} vanished inside its own transaction`);
    return questionOf(row);
  });
}

/** Deletes a curator's group and its questions, only when no item or run task depends on them. */
export function deleteChartGroup(db: Db, events: DomainEventEmitter, groupId: number, actorId: number): { deleted_questions: number } {
  return immediateTransaction(db, () => {
    const group = summaryOrThrow(db, groupId);
    if (group.source !== 'curator') throw new ChartGroupError('conflict', `group "${group.name}" comes from MultiChartQA: a re-import would bring it back; it stays`);
    const { items, tasks } = groupDependents(db, groupId);
    if (items > 0) throw new ChartGroupError('conflict', `group "${group.name}" cannot be deleted: ${items} item(s) are written over its questions`);
    if (tasks > 0) throw new ChartGroupError('conflict', `group "${group.name}" cannot be deleted: ${tasks} run task(s) are planned on its questions`);
    const deleted = deleteGroup(db, groupId);
    events.emit('chart_group.deleted', { actor_id: actorId, group_id: groupId, split: group.split, name: group.name, questions: deleted });
    return { deleted_questions: deleted };
  });
}
