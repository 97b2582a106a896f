import { immediateTransaction } from '../../db/transactions';
import type { Proposal, ProposalScope } from '../../shared/api/pool';
import type { ChartType } from '../../shared/domain/chart-types';
import type { AppContext } from '../app-context';
import { getSettings } from '../settings/settings-queries';
import { addProposal, editProposal } from './pool-service';

/**
 * Says proposals were stored (a curator's seed, a run's Stage 1 task, a reflection's revision):
 * inside the transaction that stored them, or just after it — whose subscriber publishes
 * `proposal.created` once it committed. Duplicates are said too: the Pool page lists them.
 */
export function announceProposals(ctx: Pick<AppContext, 'events'>, proposals: readonly Proposal[]): void {
  if (proposals.length > 0) ctx.events.emit('proposals.added', { proposals });
}

/** A curator's hand-written seed: checked for duplicates like any proposal, then announced. */
export function addSeedProposal(ctx: AppContext, seed: { chart_type: ChartType; text: string; scope?: ProposalScope }, curatorId: number): Proposal {
  return immediateTransaction(ctx.db, () => {
    const proposal = addProposal(
      ctx.db,
      { chartType: seed.chart_type, scope: seed.scope ?? 'chart', text: seed.text, origin: 'seed', parentIds: [], createdBy: curatorId },
      getSettings(ctx.db).rouge_threshold,
    );
    announceProposals(ctx, [proposal]);
    return proposal;
  });
}

/** A curator edits a proposal's text or retires / re-activates it; every client is told (`proposal.updated`). */
export function changeProposal(ctx: AppContext, id: number, change: { text?: string; status?: 'active' | 'retired' }): Proposal {
  return immediateTransaction(ctx.db, () => {
    const proposal = editProposal(ctx.db, id, change, getSettings(ctx.db).rouge_threshold);
    ctx.events.emit('proposal.changed', { proposal });
    return proposal;
  });
}
