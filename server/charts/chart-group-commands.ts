import type { ChartGroupSummary, GroupQuestion } from '../../shared/api/chart-groups';
import type { ChartGroupChange } from '../../shared/events';
import type { AppContext } from '../app-context';
import { groupChartIds, groupSummaryRow } from './chart-group-queries';
import { addGroupQuestion, createChartGroup, deleteChartGroup, updateChartGroup } from './chart-group-service';

/**
 * Chart groups' writes with their after-effect: each stores through `chart-group-service.ts`
 * (one transaction with its audit entry) and, once that committed, tells every client
 * (`chart_group.changed`), so a group another curator made or changed shows without a refetch.
 * A refusal throws before anything is published. What clients need to know besides the group
 * (its charts, whose pages link to it) is read inside the write's transaction: the group may be
 * gone right after it commits.
 */

type CreateInput = Parameters<typeof createChartGroup>[1];
type UpdateInput = Parameters<typeof updateChartGroup>[2];
type QuestionInput = Parameters<typeof addGroupQuestion>[2];

function announce(ctx: Pick<AppContext, 'publish'>, groupId: number, change: ChartGroupChange, chartIds: readonly number[]): void {
  ctx.publish('chart_group.changed', { group_id: groupId, change, chart_ids: [...chartIds] });
}

export function createGroup(ctx: AppContext, input: CreateInput, actorId: number): ChartGroupSummary {
  const group = createChartGroup(ctx.db, input, actorId);
  announce(ctx, group.id, 'created', group.members.map((m) => m.chart_id));
  return group;
}

/** A rename or reorder; a request that changed nothing publishes nothing. */
export function updateGroup(ctx: AppContext, groupId: number, input: UpdateInput, actorId: number): ChartGroupSummary {
  const { before, group } = ctx.db.transaction(() => {
    const row = groupSummaryRow(ctx.db, groupId);
    const previous = row === null ? null : { name: row.name, chartIds: groupChartIds(ctx.db, groupId) };
    return { before: previous, group: updateChartGroup(ctx.db, groupId, input, actorId) };
  })();
  const after = group.members.map((m) => m.chart_id);
  if (before === null || before.name !== group.name || before.chartIds.join(',') !== after.join(',')) announce(ctx, groupId, 'edited', after);
  return group;
}

/** The question is stored on the group's first chart (`chart_ids[0]`): that chart's questions change too. */
export function addQuestion(ctx: AppContext, groupId: number, input: QuestionInput, actorId: number): GroupQuestion {
  const { question, chartIds } = ctx.db.transaction(() => ({
    question: addGroupQuestion(ctx.db, groupId, input, actorId),
    chartIds: groupChartIds(ctx.db, groupId),
  }))();
  announce(ctx, groupId, 'question_added', chartIds);
  return question;
}

/** Announced with the charts it had: their pages linked to it. */
export function deleteGroup(ctx: AppContext, groupId: number, actorId: number): { deleted_questions: number } {
  const { result, chartIds } = ctx.db.transaction(() => {
    const members = groupChartIds(ctx.db, groupId);
    return { result: deleteChartGroup(ctx.db, groupId, actorId), chartIds: members };
  })();
  announce(ctx, groupId, 'deleted', chartIds);
  return result;
}
