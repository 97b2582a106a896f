import type { Db } from '../../db/database';
import type { Proposal, ProposalScope } from '../../shared/api/pool';
import { CHART_TYPES, type ChartType } from '../../shared/domain/chart-types';
import type { ProposalOrigin } from '../../shared/domain/generation';
import { findNearDuplicate } from '../../shared/generation/similarity';
import { DomainError, notFound } from '../domain-error';
import { seedProposals } from '../llm/templates';
import { getProposal, insertProposal, countSeeds, poolTexts, updateProposal } from './pool-queries';

/**
 * Loads the hand-written seeds of `prompts/seeds.json` for every chart type that has none yet.
 * Group seeds (`prompts/group-seeds.json`) are entered by the run planner when a run first
 * meets a chart group (ensureGroupSeedProposals), so a pool without groups stays as it was.
 */
export function ensureSeedProposals(db: Db): number {
  const seeds = seedProposals();
  let added = 0;
  db.transaction(() => {
    for (const chartType of CHART_TYPES) {
      if (countSeeds(db, chartType) > 0) continue;
      for (const text of seeds[chartType]) {
        insertProposal(db, { chart_type: chartType, text, origin: 'seed', status: 'active' });
        added++;
      }
    }
  })();
  return added;
}

export interface NewProposal {
  chartType: ChartType;
  /** 'chart' when left out; a revision keeps its parent's, a Stage 1 proposal its examples'. */
  scope?: ProposalScope;
  text: string;
  origin: ProposalOrigin;
  parentIds: number[];
  runId?: number | null;
  round?: number;
  createdBy?: number | null;
}

/**
 * Adds a proposal to the pool, or keeps it as `duplicate` (with a pointer and its score) when
 * it is too close to one already there. One transaction, so two concurrent writers cannot both
 * add the same text as active.
 */
export function addProposal(db: Db, proposal: NewProposal, threshold: number): Proposal {
  const id = db.transaction(() => {
    // A revision rewrites its parent, so it overlaps it by design: it is compared with the rest of the pool.
    const exclude = new Set(proposal.origin === 'revised' ? proposal.parentIds : []);
    const scope = proposal.scope ?? 'chart';
    const pool = poolTexts(db, proposal.chartType, scope).filter((p) => !exclude.has(p.id));
    const near = findNearDuplicate(proposal.text, pool, threshold);
    return insertProposal(db, {
      chart_type: proposal.chartType,
      scope,
      text: proposal.text.trim(),
      origin: proposal.origin,
      status: near ? 'duplicate' : 'active',
      duplicate_of: near?.proposal.id ?? null,
      similarity: near ? Math.round(near.score * 1000) / 1000 : null,
      run_id: proposal.runId ?? null,
      round: proposal.round ?? 0,
      created_by: proposal.createdBy ?? null,
      parent_ids: proposal.parentIds,
    });
  })();
  const created = getProposal(db, id);
  if (!created) throw new Error(`proposal ${id} vanished after insert`);
  return created;
}

/**
 * A curator's change: new text (checked for duplicates like any proposal) or retire /
 * re-activate. Re-activating a duplicate is allowed: the curator overrides the filter knowingly.
 */
export function editProposal(db: Db, id: number, change: { text?: string; status?: 'active' | 'retired' }, threshold: number): Proposal {
  return db.transaction(() => {
    const current = getProposal(db, id);
    if (!current) throw notFound(`proposal ${id}`);
    if (change.text !== undefined) {
      const others = poolTexts(db, current.chart_type, current.scope).filter((p) => p.id !== id);
      const near = findNearDuplicate(change.text, others, threshold);
      if (near) throw new DomainError('conflict', `too close to proposal ${near.proposal.id} (ROUGE-L ${near.score.toFixed(2)}): "${near.proposal.text}"`, 'text');
    }
    updateProposal(db, id, change);
    const updated = getProposal(db, id);
    if (!updated) throw notFound(`proposal ${id}`);
    return updated;
  })();
}
