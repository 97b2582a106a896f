import type { Db } from '../../db/database';
import type { ProposalScope } from '../../shared/api/pool';
import type { ChartType } from '../../shared/domain/chart-types';
import type { Settings } from '../../shared/settings';
import type { Engine } from '../../shared/domain/generation';
import { groupIdOfQa, loadChartGroup } from '../charts/chart-group-queries';
import { chartTableOfQa, type QaWithChart } from '../charts/chart-queries';
import { noItemsReason } from '../charts/table-state';
import { createItem, itemKey } from '../items/item-service';
import { addProposal } from '../pool/pool-service';
import type { EngineResult, GenerationEngine } from './engine';
import { addRunUsage, finishTask, type RunRecord, type TaskRow } from './run-queries';

/**
 * What a finished task stores, whichever way its model reply came (a call of its own, or a
 * line of a stage's batch): its usage, its proposals or item, the task's outcome — in one
 * transaction (a savepoint inside the caller's). The caller publishes what was made once it is committed.
 */

export type ProposalResult = EngineResult<{ texts: string[]; declined?: string }>;
export type ItemResult = Awaited<ReturnType<GenerationEngine['item']>>;

export function storeProposalResult(
  db: Db,
  run: RunRecord,
  task: TaskRow,
  input: { chartType: ChartType; scope?: ProposalScope; examples: { id: number }[]; settings: Settings },
  result: ProposalResult,
): ReturnType<typeof addProposal>[] {
  return db.transaction(() => {
    addRunUsage(db, run.id, result.usage);
    if (!result.ok) {
      finishTask(db, task, { ok: false, error: result.reason });
      return [];
    }
    const proposals = result.texts.map((text) =>
      addProposal(
        db,
        { chartType: input.chartType, scope: input.scope ?? 'chart', text, origin: 'generated', parentIds: input.examples.map((e) => e.id), runId: run.id, round: run.pool_round },
        input.settings.rouge_threshold,
      ),
    );
    finishTask(db, task, { ok: true, proposalsCreated: proposals.filter((p) => p.status === 'active').length, ...(result.declined ? { declined: result.declined } : {}) });
    return proposals;
  }).immediate();
}

export function storeItemResult(
  db: Db,
  run: RunRecord,
  task: TaskRow,
  input: { source: QaWithChart; proposal: { id: number }; control: boolean; engine: Pick<GenerationEngine, 'engine' | 'model'> },
  result: ItemResult,
) {
  const { source, proposal, control, engine } = input;
  return db.transaction(() => {
    addRunUsage(db, run.id, result.usage);
    if (!result.ok) {
      finishTask(db, task, { ok: false, error: result.reason, itemFailed: true });
      return null;
    }
    if ('declined' in result) {
      // The offline rules say who they are in their reason; a model's decline is its own words.
      finishTask(db, task, { ok: true, declined: engine.engine === 'offline' ? result.declined : `the model declined: ${result.declined}` });
      return null;
    }
    const proposalId = result.proposalId ?? proposal.id;
    const created = createItem(
      db,
      {
        source,
        draft: result.draft,
        origin: engine.engine === 'offline' ? 'offline' : 'llm',
        proposalId,
        runId: run.id,
        model: engine.model,
        createdBy: null,
        idempotencyKey: proposalId === proposal.id ? task.idempotency_key : itemKey(proposalId, source.qa.id),
        notes: result.notes ?? [],
      },
      control ? 'control' : 'drop',
    );
    if (!created.ok) {
      finishTask(db, task, { ok: false, error: created.reason, itemFailed: true });
      return null;
    }
    finishTask(db, task, { ok: true, itemsCreated: created.item ? 1 : 0 });
    return created.item;
  }).immediate();
}

/** Why an item task's chart has nothing to compute over (no table, or for the offline engine none confirmed), or null when the task can run. */
export function noTableReason(db: Db, task: TaskRow, engine: Engine): string | null {
  return task.qa_id === null ? null : (groupNoItemsReason(db, task.qa_id, engine) ?? noItemsReason(chartTableOfQa(db, task.qa_id), engine));
}

/**
 * Ends an item task whose chart has nothing to compute over with that reason, a task outcome
 * the run shows rather than a crash; the reason, or null when the task can run. Call-by-call
 * and batch runs both ask first.
 */
export function endTaskWithoutTable(db: Db, task: TaskRow, engine: Engine): string | null {
  const reason = noTableReason(db, task, engine);
  if (reason) db.transaction(() => finishTask(db, task, { ok: false, error: reason, itemFailed: true })).immediate();
  return reason;
}

/**
 * Ends a model item task the server paired with no proposal (`none`: no request is sent), as
 * declined with the pairing's reason: done, not failed, never retried. Both run paths call it.
 */
export function endTaskUnpaired(db: Db, task: TaskRow, reason: string): void {
  db.transaction(() => finishTask(db, task, { ok: true, declined: reason })).immediate();
}

/**
 * A question over a chart group follows one chart's rules for every chart of the group: the
 * first member without a table (or, for the offline engine, without a confirmed one) is named
 * with the single-chart reason, and its place in the group.
 */
function groupNoItemsReason(db: Db, qaId: number, engine: Engine): string | null {
  const groupId = groupIdOfQa(db, qaId);
  if (groupId === null) return null;
  const group = loadChartGroup(db, groupId);
  for (const member of group?.members ?? []) {
    const name = `${member.split}/${member.imgname} (chart ${member.position} of group ${group?.name ?? groupId})`;
    const reason = noItemsReason({ name, has_table: member.table !== null, table_confirmed: member.table_confirmed }, engine);
    if (reason) return reason;
  }
  return null;
}
