import type { ReflectionBatch } from '../../shared/api/reflection';
import type { AppContext } from '../app-context';
import type { JobExecutor } from '../jobs/job-kind';
import { DurableJobs } from '../jobs/durable-job';
import { automaticReflectionPending, finishBatch, getBatch, insertBatch, listBatches, publicBatch, recordBatchStep } from './batch-queries';
import { getSettings } from '../settings/settings-queries';
import { proposalsWithNewDecisions } from './reflection-queries';
import { ReflectionCancelled, type FeedbackLoop } from './reflection-service';

/** How many batches the list shows. */
const BATCHES_LISTED = 20;

/**
 * "Reflect on all with new feedback": every active proposal (of a chart type) with decisions it
 * has not reflected on yet, one after the other in the background. A batch is stored with its
 * list of proposals and how far it got, so a restart resumes it; progress goes out as
 * `reflection.progressed`.
 */
export class ReflectionBatches implements JobExecutor {
  private readonly jobs: DurableJobs;

  constructor(
    private readonly ctx: AppContext,
    private readonly loop: FeedbackLoop,
  ) {
    this.jobs = new DurableJobs(ctx, {
      table: 'reflection_batches',
      noun: 'reflection batch',
      // A curator's batch's progress; an automatic one is not listed, its reflections and revisions are announced as such.
      progress: {
        event: 'reflection.progressed',
        payload: (id) => {
          const batch = getBatch(ctx.db, id);
          return batch && batch.created_by !== null ? { batch: publicBatch(batch) } : null;
        },
      },
      // A batch has no paused or failed status: one stopped on an error stays running, taken up at the next start.
      settle: null,
    });
  }

  start(chartType: string | undefined, userId: number): ReflectionBatch {
    const id = insertBatch(this.ctx.db, { chartType: chartType ?? null, proposalIds: proposalsWithNewDecisions(this.ctx.db, chartType, getSettings(this.ctx.db).reflection_min_decisions), createdBy: userId });
    const batch = this.get(id);
    this.publish(id);
    if (batch.status === 'running') void this.run(id);
    return batch;
  }

  /**
   * Automatic reflection on a proposal enough new decisions came in for (`FeedbackLoop.itemDecided`):
   * a batch of one nobody started, so it survives a restart and a failure is recorded on it
   * rather than lost with a promise. The job's id; null when one on the proposal is pending already.
   */
  startAutomatic(proposalId: number): number | null {
    if (automaticReflectionPending(this.ctx.db, proposalId)) return null;
    const id = insertBatch(this.ctx.db, { chartType: null, proposalIds: [proposalId], createdBy: null });
    void this.run(id);
    return id;
  }

  list(): ReflectionBatch[] {
    return listBatches(this.ctx.db, BATCHES_LISTED).map(publicBatch);
  }

  get kind(): JobExecutor['kind'] {
    return this.jobs.kind;
  }

  /** At server start: batches left running by a process that is gone go on from where they were. */
  resumeOrphans(): number[] {
    return this.jobs.takeOrphans((id) => void this.run(id));
  }

  /** Server shutdown: the current call stops, and the batch resumes at the next start. */
  shutdown(): Promise<void> {
    return this.jobs.shutdown();
  }

  /** Runs a batch to its end (or until stopped); joins the run already under way. */
  run(id: number): Promise<void> {
    return this.jobs.start(id, { execute: (controller) => this.execute(id, controller.signal) });
  }

  private async execute(id: number, signal: AbortSignal): Promise<void> {
    const { db } = this.ctx;
    while (!signal.aborted) {
      const batch = getBatch(db, id);
      if (!batch || batch.status !== 'running') return;
      const proposalId = batch.proposal_ids[batch.done];
      if (proposalId === undefined) {
        finishBatch(db, id);
        return;
      }
      try {
        const { reflection } = await this.loop.reflect(proposalId, batch.created_by === null ? 'auto' : 'manual', batch.created_by, signal);
        // A reviser that answered nothing usable is stored as a failed reflection, not thrown:
        // the batch counts it failed, with its reason, as it counts a thrown error. A revision
        // the pool already held (duplicate) is no revision.
        if (reflection.status === 'failed') recordBatchStep(db, id, { error: { proposal_id: proposalId, error: reflection.error ?? 'the reviser gave no revision' } });
        else recordBatchStep(db, id, { revised: reflection.status === 'done' });
      } catch (error) {
        // Stopped mid-call: nothing was stored, and the resumed batch asks again.
        if (error instanceof ReflectionCancelled) return;
        recordBatchStep(db, id, { error: { proposal_id: proposalId, error: error instanceof Error ? error.message : String(error) } });
      }
      this.publish(id);
    }
  }

  /** Batch `id` as the page lists it. */
  get(id: number): ReflectionBatch {
    const batch = getBatch(this.ctx.db, id);
    if (!batch) throw new Error(`reflection batch ${id} vanished`);
    return publicBatch(batch);
  }

  private publish(id: number): void {
    this.jobs.progressed(id, true);
  }
}
