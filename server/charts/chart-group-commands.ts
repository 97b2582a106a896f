import { immediateTransaction } from '../../db/transactions';
import type { ChartGroupSummary, GroupQuestion } from '../../shared/api/chart-groups';
import type { ChartGroupChange } from '../../shared/events';
import type { AppContext } from '../app-context';
import { groupChartIds, groupSummaryRow } from './chart-group-queries';
import { addGroupQuestion, createChartGroup, deleteChartGroup, updateChartGroup } from './chart-group-service';

/**
 * Chart groups' writes with what they did: each stores through `chart-group-service.ts` (whose
 * events' audit entries join the same transaction) and emits `chart_group.changed` inside that transaction,
 * whose subscriber tells every client once it committed, so a group another curator made or
 * changed shows without a refetch. A refusal throws before anything is emitted. What clients need
 * to know besides the group (its charts, whose pages link to it) is read inside the write's
 * transaction: the group may be gone right after it commits.
 */

type CreateInput = Parameters<typeof createChartGroup>[2];
type UpdateInput = Parameters<typeof updateChartGroup>[3];
type QuestionInput = Parameters<typeof addGroupQuestion>[3];
type Ctx = Pick<AppContext, 'db' | 'events'>;

function changed(ctx: Ctx, groupId: number, change: ChartGroupChange, chartIds: readonly number[]): void {
  ctx.events.emit('chart_group.changed', { group_id: groupId, change, chart_ids: [...chartIds] });
}

export function createGroup(ctx: Ctx, input: CreateInput, actorId: number): ChartGroupSummary {
  return immediateTransaction(ctx.db, () => {
    const group = createChartGroup(ctx.db, ctx.events, input, actorId);
    changed(ctx, group.id, 'created', group.members.map((m) => m.chart_id));
    return group;
  });
}

/** A rename or reorder; a request that changed nothing says nothing. */
export function updateGroup(ctx: Ctx, groupId: number, input: UpdateInput, actorId: number): ChartGroupSummary {
  return immediateTransaction(ctx.db, () => {
    const row = groupSummaryRow(ctx.db, groupId);
    const before = row === null ? null : { name: row.name, chartIds: groupChartIds(ctx.db, groupId) };
    const group = updateChartGroup(ctx.db, ctx.events, groupId, input, actorId);
    const after = group.members.map((m) => m.chart_id);
    if (before === null || before.name !== group.name || before.chartIds.join(',') !== after.join(',')) changed(ctx, groupId, 'edited', after);
    return group;
  });
}

/** The question is stored on the group's first chart (`chart_ids[0]`): that chart's questions change too. */
export function addQuestion(ctx: Ctx, groupId: number, input: QuestionInput, actorId: number): GroupQuestion {
  return immediateTransaction(ctx.db, () => {
    const question = addGroupQuestion(ctx.db, ctx.events, groupId, input, actorId);
    changed(ctx, groupId, 'question_added', groupChartIds(ctx.db, groupId));
    return question;
  });
}

/** Said with the charts it had: their pages linked to it. */
export function deleteGroup(ctx: Ctx, groupId: number, actorId: number): { deleted_questions: number } {
  return immediateTransaction(ctx.db, () => {
    const members = groupChartIds(ctx.db, groupId);
    const result = deleteChartGroup(ctx.db, ctx.events, groupId, actorId);
    changed(ctx, groupId, 'deleted', members);
    return result;
  });
}
