import type { Proposal, ProposalScope } from '../../shared/api/pool';
import type { ChartType } from '../../shared/domain/chart-types';
import type { AppContext } from '../app-context';
import { getSettings } from '../settings/settings-queries';
import { addProposal, editProposal } from './pool-service';

/**
 * The one place `proposal.created` is published: after the transaction that stored the
 * proposals (a curator's seed, a run's Stage 1 task, a reflection's revision) committed.
 * Duplicates are announced too: the Pool page lists them.
 */
export function announceProposals(ctx: Pick<AppContext, 'publish'>, proposals: readonly Proposal[]): void {
  for (const proposal of proposals) ctx.publish('proposal.created', { proposal });
}

/** A curator's hand-written seed: checked for duplicates like any proposal, then announced. */
export function addSeedProposal(ctx: AppContext, seed: { chart_type: ChartType; text: string; scope?: ProposalScope }, curatorId: number): Proposal {
  const proposal = addProposal(
    ctx.db,
    { chartType: seed.chart_type, scope: seed.scope ?? 'chart', text: seed.text, origin: 'seed', parentIds: [], createdBy: curatorId },
    getSettings(ctx.db).rouge_threshold,
  );
  announceProposals(ctx, [proposal]);
  return proposal;
}

/** A curator edits a proposal's text or retires / re-activates it; every client is told (`proposal.updated`). */
export function changeProposal(ctx: AppContext, id: number, change: { text?: string; status?: 'active' | 'retired' }): Proposal {
  const proposal = editProposal(ctx.db, id, change, getSettings(ctx.db).rouge_threshold);
  ctx.publish('proposal.updated', { proposal });
  return proposal;
}
