import type { Proposal } from '../../shared/api/pool';
import type { Reflection, ReflectionBatch } from '../../shared/api/reflection';
import type { AppContext } from '../app-context';
import { HttpError, notFound } from '../http/http-error';
import { getProposal, updateProposal } from '../pool/pool-queries';
import { addProposal } from '../pool/pool-service';
import { getSettings } from '../settings/settings-queries';
import { decisionCounts, getReflection, insertReflection, proposalFeedback, proposalsWithNewDecisions, setReflectedDecisions } from './reflection-queries';
import { createOfflineReviser, createOpenAiReviser, type Reviser } from './revisers';

function reviserFor(ctx: AppContext): Reviser {
  const settings = getSettings(ctx.db);
  if (!ctx.config.openaiApiKey) return createOfflineReviser();
  return createOpenAiReviser({
    db: ctx.db,
    apiKey: ctx.config.openaiApiKey,
    ...(ctx.config.openaiBaseUrl ? { baseURL: ctx.config.openaiBaseUrl } : {}),
    model: settings.generation_model,
    temperature: settings.temperature,
    settings,
  });
}

/**
 * Reflection and pool upkeep after reviews: revises a proposal from its items' feedback (on
 * demand, or automatically once enough new decisions arrived) and retires proposals whose
 * items keep failing. Revisions enter the pool as `revised`, one round past their parent,
 * through the same duplicate filter as Stage 1.
 */
/** How many finished and running batches the process remembers. */
const BATCHES_KEPT = 20;

export class FeedbackLoop {
  private readonly inFlight = new Set<number>();
  /** Recent batches, oldest first; they live as long as the process (reflections themselves are stored). */
  private readonly batches = new Map<number, ReflectionBatch>();
  // Time-based, so a batch started after a restart never takes the id of one a client still shows.
  private nextBatchId = Date.now();

  constructor(
    private readonly ctx: AppContext,
    private readonly reviser: () => Reviser = () => reviserFor(ctx),
  ) {}

  async reflect(proposalId: number, trigger: 'auto' | 'manual', userId: number | null): Promise<{ reflection: Reflection; revised: Proposal | null }> {
    const { db } = this.ctx;
    const proposal = getProposal(db, proposalId);
    if (!proposal) throw notFound(`proposal ${proposalId}`);
    const feedback = proposalFeedback(db, proposalId);
    if (feedback.length === 0) throw new HttpError('conflict', `proposal ${proposalId} has no reviewed items yet: nothing to reflect on`);
    if (this.inFlight.has(proposalId)) throw new HttpError('conflict', `proposal ${proposalId} is being revised already`);
    this.inFlight.add(proposalId);
    try {
      const counts = decisionCounts(db, proposalId);
      const reviser = this.reviser();
      const result = await reviser.revise({ proposal, feedback, decided: counts.decided, accepted: counts.accepted });
      const settings = getSettings(db);
      const { id, revised } = db.transaction(() => {
        const revisedProposal = result.ok
          ? addProposal(
              db,
              { chartType: proposal.chart_type, text: result.text, origin: 'revised', parentIds: [proposal.id], round: proposal.round + 1, createdBy: userId },
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
        return { id: reflectionId, revised: revisedProposal };
      })();
      if (revised) this.ctx.publish('proposal.created', { proposal: revised });
      const reflection = getReflection(db, id);
      if (!reflection) throw new Error(`reflection ${id} vanished`);
      return { reflection, revised };
    } finally {
      this.inFlight.delete(proposalId);
    }
  }

  /**
   * Reflects on every active proposal (of a chart type) with decisions it has not reflected
   * on yet, one after the other in the background; progress goes out as `reflection.progressed`.
   */
  startBatch(chartType: string | undefined, userId: number): ReflectionBatch {
    const candidates = proposalsWithNewDecisions(this.ctx.db, chartType);
    const batch: ReflectionBatch = { id: this.nextBatchId++, status: 'running', total: candidates.length, done: 0, revised: 0, failed: 0, errors: [] };
    this.batches.set(batch.id, batch);
    if (this.batches.size > BATCHES_KEPT) this.batches.delete(this.batches.keys().next().value ?? batch.id);
    const progress = () => this.ctx.publish('reflection.progressed', { batch: { ...batch, errors: [...batch.errors] } });
    progress();
    void (async () => {
      for (const proposalId of candidates) {
        try {
          const { revised } = await this.reflect(proposalId, 'manual', userId);
          if (revised) batch.revised++;
        } catch (error) {
          batch.failed++;
          batch.errors.push({ proposal_id: proposalId, error: error instanceof Error ? error.message : String(error) });
        }
        batch.done++;
        progress();
      }
      batch.status = 'done';
      progress();
    })();
    return { ...batch };
  }

  /** Recent batches, newest first: a page opened (or reconnected) mid-batch shows its progress. */
  listBatches(): ReflectionBatch[] {
    return [...this.batches.values()].reverse().map((batch) => ({ ...batch, errors: [...batch.errors] }));
  }

  /** After an item is decided: retire a failing proposal, or reflect once enough new decisions came in. */
  itemDecided(itemId: number): void {
    const { db } = this.ctx;
    const row = db.prepare('SELECT proposal_id FROM hqa_items WHERE id = ?').get(itemId) as { proposal_id: number | null } | undefined;
    const proposalId = row?.proposal_id;
    if (proposalId === null || proposalId === undefined) return;
    const proposal = getProposal(db, proposalId);
    if (!proposal || proposal.status !== 'active') return;
    const settings = getSettings(db);
    const counts = decisionCounts(db, proposalId);
    if (counts.decided >= settings.retire_min_decisions && counts.accepted / counts.decided <= settings.retire_max_pass_rate) {
      updateProposal(db, proposalId, { status: 'retired' });
      const retired = getProposal(db, proposalId);
      if (retired) this.ctx.publish('proposal.updated', { proposal: retired });
      this.ctx.logger.info({ proposalId, decided: counts.decided, accepted: counts.accepted }, 'retired a proposal whose items keep failing');
    }
    if (settings.auto_reflect && counts.decided - counts.reflected >= settings.reflection_min_decisions && !this.inFlight.has(proposalId)) {
      this.reflect(proposalId, 'auto', null).catch((error: unknown) => {
        this.ctx.logger.warn({ err: error, proposalId }, 'automatic reflection failed');
      });
    }
  }
}
