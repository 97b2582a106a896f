import { immediateTransaction } from '../../db/transactions';
import type { Proposal } from '../../shared/api/pool';
import type { Reflection } from '../../shared/api/reflection';
import type { AppContext } from '../app-context';
import { DomainError, notFound } from '../domain-error';
import { getProposal, updateProposal } from '../pool/pool-queries';
import { addProposal } from '../pool/pool-service';
import { announceProposals } from '../pool/pool-commands';
import { providersFor } from '../llm/model-roles';
import { getSettings } from '../settings/settings-queries';
import { decisionCounts, getReflection, insertReflection, proposalFeedback, proposalSpokenFor, setReflectedDecisions } from './reflection-queries';
import { createOfflineReviser, createOpenAiReviser, type Reviser } from './revisers';

/** The reflection role: its model when an endpoint is configured, else its stand-in, the offline rule reviser. */
function reviserFor(ctx: AppContext): Reviser {
  const { connection, model, temperature } = providersFor(getSettings(ctx.db), ctx.config).reflection;
  if (!connection || !model) return createOfflineReviser();
  return createOpenAiReviser({ db: ctx.db, connection, model, temperature });
}

/** A reflection stopped before it finished (its batch is stopping); nothing was stored. */
export class ReflectionCancelled extends Error {
  constructor(readonly proposalId: number) {
    super(`reflection on proposal ${proposalId} was stopped`);
  }
}

/**
 * Reflection and pool upkeep after reviews: revises a proposal from its items' feedback (on
 * demand, or automatically once enough new decisions arrived) and retires proposals whose
 * items keep failing. Revisions enter the pool as `revised`, one round past their parent,
 * through the same duplicate filter as Stage 1.
 */
export class FeedbackLoop {
  private readonly inFlight = new Set<number>();

  constructor(
    private readonly ctx: AppContext,
    private readonly reviser: () => Reviser = () => reviserFor(ctx),
  ) {}

  /** `signal`: a batch being stopped; an interrupted call stores nothing and throws `ReflectionCancelled`. */
  async reflect(
    proposalId: number,
    trigger: 'auto' | 'manual',
    userId: number | null,
    signal?: AbortSignal,
  ): Promise<{ reflection: Reflection; revised: Proposal | null }> {
    const { db } = this.ctx;
    const proposal = getProposal(db, proposalId);
    if (!proposal) throw notFound(`proposal ${proposalId}`);
    const feedback = proposalFeedback(db, proposalId);
    if (feedback.length === 0) throw new DomainError('conflict', `proposal ${proposalId} has no reviewed items yet: nothing to reflect on`);
    const minimum = getSettings(db).reflection_min_decisions;
    const decided = decisionCounts(db, proposalId).decided;
    if (decided < minimum) {
      throw new DomainError('conflict', `proposal ${proposalId} has ${decided} decided item${decided === 1 ? '' : 's'}; reflection waits for ${minimum} (setting reflection_min_decisions)`);
    }
    if (this.inFlight.has(proposalId)) throw new DomainError('conflict', `proposal ${proposalId} is being revised already`);
    this.inFlight.add(proposalId);
    try {
      const counts = decisionCounts(db, proposalId);
      const reviser = this.reviser();
      const result = await reviser.revise({ proposal, feedback, decided: counts.decided, accepted: counts.accepted, ...(signal ? { signal } : {}) });
      if (!result.ok && signal?.aborted) throw new ReflectionCancelled(proposalId);
      const settings = getSettings(db);
      const { id, revised } = immediateTransaction(db, () => {
        const revisedProposal = result.ok
          ? addProposal(
              db,
              { chartType: proposal.chart_type, scope: proposal.scope, text: result.text, origin: 'revised', parentIds: [proposal.id], round: proposal.round + 1, createdBy: userId },
              settings.rouge_threshold,
            )
          : null;
        setReflectedDecisions(db, proposalId, counts.decided);
        const reflectionId = insertReflection(db, {
          proposalId,
          revisedId: revisedProposal?.id ?? null,
          trigger,
          engine: reviser.engine,
          model: reviser.model,
          feedback,
          addressed: result.ok ? result.addressed : null,
          status: !revisedProposal ? 'failed' : revisedProposal.status === 'duplicate' ? 'duplicate' : 'done',
          error: result.ok ? null : result.reason,
          usage: result.usage,
          createdBy: userId,
        });
        if (revisedProposal) announceProposals(this.ctx, [revisedProposal]);
        return { id: reflectionId, revised: revisedProposal };
      });
      const reflection = getReflection(db, id);
      if (!reflection) throw new Error(`reflection ${id} vanished`);
      return { reflection, revised };
    } finally {
      this.inFlight.delete(proposalId);
    }
  }

  /**
   * After an item is decided: retire a failing proposal; the proposal to reflect on automatically
   * when enough new decisions came in (for `ReflectionBatches.startAutomatic`, a job), else null.
   * An item that does not speak for its proposal (a reviewer's own, or one performing another
   * operation) moves neither.
   */
  itemDecided(itemId: number): number | null {
    const { db } = this.ctx;
    const proposalId = proposalSpokenFor(db, itemId);
    if (proposalId === null) return null;
    const proposal = getProposal(db, proposalId);
    if (!proposal || proposal.status !== 'active') return null;
    const settings = getSettings(db);
    const counts = decisionCounts(db, proposalId);
    if (counts.decided >= settings.retire_min_decisions && counts.accepted / counts.decided <= settings.retire_max_pass_rate) {
      immediateTransaction(db, () => {
        updateProposal(db, proposalId, { status: 'retired' });
        const retired = getProposal(db, proposalId);
        if (retired) this.ctx.events.emit('proposal.changed', { proposal: retired });
      });
      this.ctx.logger.info({ proposalId, decided: counts.decided, accepted: counts.accepted }, 'retired a proposal whose items keep failing');
    }
    const due = settings.auto_reflect && counts.decided - counts.reflected >= settings.reflection_min_decisions && !this.inFlight.has(proposalId);
    return due ? proposalId : null;
  }
}
