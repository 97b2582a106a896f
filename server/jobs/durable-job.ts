import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { AppContext } from '../app-context';
import { ActiveJobs, type JobFailure } from './active-jobs';
import type { JobKind } from './job-kind';
import { HEARTBEAT_MS, ownerGone, thisProcess, type JobOwner } from './job-owner';
import { claimJob, heartbeatJob, jobOwner, releaseJob, unfinishedJobs, type JobTable, type Owner } from './job-queries';
import { keepReserve, roomToWork, writeDespiteFullDisk } from '../../db/storage-reserve';
import { DomainError } from '../domain-error';
import { isBusyError, pauseReasonOf } from './storage-errors';
import { BUSY_ATTEMPTS, busyBackoff } from './busy-retry';
import { abortableSleep } from '../llm/retry';

/** How often a busy job tells clients its progress, at most. */
const PROGRESS_THROTTLE_MS = 250;
/**
 * The share of the event loop a job's progress may take: a payload that costs more (an
 * evaluation's scores over ten thousand answers, ~5 ms) is told less often. Each is a task the
 * loop runs whole, while every model call in flight waits for its reply to be read.
 */
const PROGRESS_LOOP_SHARE = 0.01;

export interface DurableJobOptions {
  /** Who this process is on the jobs it owns; tests give two owners one database file. */
  owner?: Owner;
  heartbeatMs?: number;
  /** The clock that judges another host's heartbeat stale, and paces progress. */
  now?: () => number;
  /** The first wait before a busy start is tried again (BUSY_BACKOFF_MS); tests shorten it. */
  busyBackoffMs?: number;
}

export interface JobWork {
  /**
   * The job's own step into running (its status, written before it is claimed); false when it
   * cannot run now (done, cancelled). Met with a busy database, it is tried again with the claim.
   */
  begin?: () => boolean;
  /** The job's own work loop; winds down soon after the controller aborts. */
  execute: (controller: AbortController) => Promise<void>;
  /** What it throws; by default the kind's rule (`stopOnError`): paused for a cause that passes, failed otherwise. */
  onFailure?: JobFailure;
  /** After the job stops for any reason, its ownership already released; by default its progress, told at once. */
  onSettled?: () => void;
  /** After each heartbeat that proved this process still owns the job: what else its liveness vouches for (a run's task claims). */
  onBeat?: () => void;
}

/**
 * The jobs of one table of `JOB_TABLES` (generation runs, evaluation runs, reflection batches,
 * extraction jobs or chart-type jobs) as this
 * process works them, durably: a job it runs is recorded as its own and heartbeats; one it
 * stops (done, failed, paused, cancelled, shut down) is released, so any process may take it
 * at once; one whose owner died without releasing it is an orphan, taken over by whichever
 * process claims it first. A job taken over while it still ran here (its heartbeat was stale:
 * a host cut off) stops here. What a job does, and what a resume must repair first, is its
 * executor's.
 */
export class DurableJobs {
  private readonly active = new ActiveJobs();
  private readonly owner: Owner;
  private readonly heartbeatMs: number;
  private readonly now: () => number;
  private readonly busyBackoffMs: number | undefined;
  private readonly table: JobTable;
  /** When each job may next tell its progress unforced. */
  private readonly nextProgress = new Map<number, number>();

  constructor(
    private readonly ctx: { db: Db; logger: Logger; publish?: AppContext['publish'] },
    readonly kind: JobKind,
    options: DurableJobOptions = {},
  ) {
    this.table = kind.table;
    this.owner = options.owner ?? thisProcess();
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.now = options.now ?? Date.now;
    this.busyBackoffMs = options.busyBackoffMs;
    // Room for recording a pause on a full disk, set aside by whichever process runs jobs (a server, `hqa generate`); a full disk already leaves it to the next resume.
    keepReserve(ctx.db);
  }

  /** Who this process is on the jobs it owns. */
  get ownerId(): Owner {
    return this.owner;
  }

  /** Whether job `id` runs in this process. */
  has(id: number): boolean {
    return this.active.has(id);
  }

  /** The running job's promise, if `id` runs here. */
  running(id: number): Promise<void> | undefined {
    return this.active.running(id);
  }

  /**
   * Runs job `id` here until it stops; joins it if it already runs here. A job another live
   * process owns is left to it: nothing runs, and the promise resolves at once. The job's
   * `begin` and its claim, met with a busy database, are tried again (BUSY_ATTEMPTS, backing
   * off); still busy, the job keeps its status, nothing runs, and the failure is logged.
   */
  start(id: number, work: JobWork): Promise<void> {
    return this.startTry(id, work, 1);
  }

  /** Try `attempt` of a start (BUSY_ATTEMPTS in all while the database stays busy). */
  private startTry(id: number, work: JobWork, attempt: number): Promise<void> {
    const running = this.active.running(id);
    if (running) return running;
    let claimed: boolean;
    try {
      claimed = (work.begin?.() ?? true) && this.claim(id);
    } catch (error) {
      if (!isBusyError(error)) throw error;
      // Another connection held the write lock past the busy timeout: tried again, as a task's write is.
      if (attempt < BUSY_ATTEMPTS) return abortableSleep(busyBackoff(attempt, this.busyBackoffMs)).then(() => this.startTry(id, work, attempt + 1));
      // Still busy: the job keeps its status, for a resume or the next start to take up (callers do not await a start).
      this.ctx.logger.error({ err: error, table: this.table, jobId: id }, `${this.kind.noun} could not start: the database stayed busy; it keeps its status, to be resumed`);
      return Promise.resolve();
    }
    if (!claimed) return Promise.resolve();
    const onFailure = work.onFailure ?? ((error: unknown) => this.stopOnError(id, error));
    const onSettled = work.onSettled ?? (() => this.progressed(id, true));
    return this.active.start(id, (controller) => this.owned(id, controller, work), this.guarded(id, 'recording its failure', onFailure), this.guarded(id, 'settling', onSettled));
  }

  /**
   * The one rule for a job that stopped on an error, every kind alike: a full or read-only disk,
   * or a database another process kept locked past every retry, pauses it with that reason (a
   * resume takes it up once the cause has passed); anything else fails it. A kind without those
   * statuses keeps the job unfinished, to be taken up at the next start.
   */
  stopOnError(id: number, error: unknown): void {
    const reason = pauseReasonOf(error);
    const { noun, settle } = this.kind;
    this.ctx.logger.error({ err: error, table: this.table, jobId: id }, reason !== null ? `${noun} paused: the database cannot be written now` : `${noun} stopped on an error`);
    if (settle) writeDespiteFullDisk(this.ctx.db, () => settle(id, reason !== null ? 'paused' : 'failed', reason ?? (error instanceof Error ? error.message : String(error))));
  }

  /**
   * Before a paused job is resumed: the room its next pause would need (`storage-reserve.ts`) is
   * set aside again, which also proves the disk has room; refused with `storage_unavailable`
   * while it has none, so a resume never starts work that could not even record its pause.
   */
  readyToResume(id: number): void {
    if (roomToWork(this.ctx.db)) return;
    throw new DomainError('storage_unavailable', `${this.kind.noun} ${id} stays paused: the disk of the database is still full; free some space, then resume it`);
  }

  /**
   * Tells clients how job `id` stands: at once when `force`, else at most every
   * PROGRESS_THROTTLE_MS, and less often when its payload costs more than PROGRESS_LOOP_SHARE of that.
   */
  progressed(id: number, force: boolean): void {
    const { progress } = this.kind;
    if (!progress || !this.ctx.publish) return;
    const now = this.now();
    if (!force && now < (this.nextProgress.get(id) ?? 0)) return;
    const started = performance.now();
    const payload = progress.payload(id);
    if (payload) this.ctx.publish(progress.event, payload);
    this.nextProgress.set(id, now + Math.max(PROGRESS_THROTTLE_MS, (performance.now() - started) / PROGRESS_LOOP_SHARE));
  }

  /**
   * `step` with whatever it throws logged instead: recording a failure writes to the database,
   * which on a full disk fails too, and a throw there rejected a promise nobody awaits, which
   * ended the server. Unrecorded, the job keeps its unfinished status: a resume or the next
   * start takes it up.
   */
  private guarded<A extends unknown[]>(id: number, what: string, step: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      try {
        step(...args);
      } catch (error) {
        this.ctx.logger.error({ err: error, cause: args[0], table: this.table, jobId: id }, `job ${what} failed; it stays unfinished, to be resumed`);
      }
    };
  }

  abort(id: number): void {
    this.active.abort(id);
  }

  /**
   * Claims every unfinished job whose owner is gone and hands each to `resume` (which repairs
   * what the dead owner left half done, then starts it); the ids it took. Claimed before the
   * repair, so two processes starting at once never repair the same job.
   */
  takeOrphans(resume: (id: number) => void): number[] {
    const taken: number[] = [];
    for (const job of unfinishedJobs(this.ctx.db, this.table)) {
      if (this.active.has(job.id) || !ownerGone(job, this.owner, this.now())) continue;
      if (!claimJob(this.ctx.db, this.table, job.id, this.owner, job)) continue;
      resume(job.id);
      taken.push(job.id);
    }
    return taken;
  }

  /**
   * Whether the job's last owner died while it held it (a crash, not a stop): then whatever that
   * owner kept in memory only, such as usage not yet counted, is lost.
   */
  ownerDied(job: JobOwner): boolean {
    return job.owner_pid !== null && ownerGone(job, this.owner, this.now());
  }

  /** Stops every job this process runs and waits for each (server shutdown): each is released, to resume at the next start. */
  shutdown(): Promise<void> {
    return this.active.shutdown();
  }

  /** Takes job `id` if it is free, gone, or already this process's. */
  private claim(id: number): boolean {
    const job = jobOwner(this.ctx.db, this.table, id);
    if (!job) return false;
    const mine = job.owner_pid === this.owner.pid && job.owner_host === this.owner.host;
    if (!mine && !ownerGone(job, this.owner, this.now())) {
      this.ctx.logger.warn({ table: this.table, jobId: id, ownerPid: job.owner_pid, ownerHost: job.owner_host }, 'job not started here: another live process owns it');
      return false;
    }
    return claimJob(this.ctx.db, this.table, id, this.owner, job);
  }

  private async owned(id: number, controller: AbortController, work: JobWork): Promise<void> {
    const beat = setInterval(() => this.beat(id, controller, work.onBeat), this.heartbeatMs);
    beat.unref();
    try {
      await work.execute(controller);
    } finally {
      clearInterval(beat);
      this.release(id);
    }
  }

  private beat(id: number, controller: AbortController, onBeat: JobWork['onBeat']): void {
    try {
      if (heartbeatJob(this.ctx.db, this.table, id, this.owner)) {
        onBeat?.();
        return;
      }
      this.ctx.logger.warn({ table: this.table, jobId: id }, 'job taken over by another process: stopping it here');
      controller.abort();
    } catch (error) {
      // A timer has no caller to throw to; the next beat tries again, and a stale owner is only taken over.
      this.ctx.logger.warn({ err: error, table: this.table, jobId: id }, 'job heartbeat failed');
    }
  }

  private release(id: number): void {
    try {
      releaseJob(this.ctx.db, this.table, id, this.owner);
    } catch (error) {
      // Unreleased, the job stays this process's until the process is gone: resumed then, not lost.
      this.ctx.logger.warn({ err: error, table: this.table, jobId: id }, 'releasing a job failed');
    }
  }
}
