import type { ServerEventName, ServerEventPayload } from '../../shared/events';
import type { JobTable } from './job-queries';

/** The events that tell clients how a durable job is getting on, one per kind. */
export type JobProgressEvent = Extract<ServerEventName, 'run.progressed' | 'eval.progressed' | 'reflection.progressed' | 'extraction.progressed' | 'chart_type_job.progressed'>;

/** Where a running job that stopped on an error goes: `paused` for a cause that passes (`pauseReasonOf`), `failed` otherwise. */
export type StoppedOnError = 'paused' | 'failed';

/**
 * What the job runtime (`DurableJobs`) must know of one kind of durable job, declared once by
 * its executor: the table its jobs are rows of (claims, heartbeats and orphans go through
 * `job-queries.ts` on it), how logs name one, its progress event, and how a job that stopped on
 * an error is settled. The rule that decides paused or failed is the runtime's, the same for
 * every kind (a full or read-only disk, a database locked past every retry: paused).
 */
export interface JobKind<E extends JobProgressEvent = JobProgressEvent> {
  readonly table: JobTable;
  /** How a log line names one job: "generation run". */
  readonly noun: string;
  /** Its progress event and the payload for job `id` as stored now (null: gone, or not told: an automatic reflection). */
  readonly progress: { readonly event: E; readonly payload: (id: number) => ServerEventPayload<E> | null } | null;
  /**
   * Moves running job `id` to `to` with `reason`. Null for a kind with neither status (a
   * reflection batch): its job stays unfinished and is taken up again at the next start.
   */
  readonly settle: ((id: number, to: StoppedOnError, reason: string) => void) | null;
}

/** A kind's executor as start-up and shutdown see it: the one registry (`JobRegistry`) iterates these. */
export interface JobExecutor {
  readonly kind: Pick<JobKind, 'table' | 'noun'>;
  /** Takes up the jobs a process that is gone left unfinished; the ids it took. */
  resumeOrphans(): number[];
  /** Stops every job this process runs (each is released, to resume at the next start). */
  shutdown(): Promise<void>;
}
