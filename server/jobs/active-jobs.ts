import { setMaxListeners } from 'node:events';

/** How a job ends badly, for its owner to record (failed status, log line). */
export type JobFailure = (error: unknown) => void;

/**
 * The background jobs this process is executing, in memory (DurableJobs keeps their ownership
 * in the database): one abort signal each, so pause/cancel/shutdown reach every in-flight call,
 * and one promise each, so starting a job twice joins the first.
 */
export class ActiveJobs {
  private readonly jobs = new Map<number, { controller: AbortController; done: Promise<void> }>();

  has(id: number): boolean {
    return this.jobs.has(id);
  }

  /** The running job's promise, if `id` runs here. */
  running(id: number): Promise<void> | undefined {
    return this.jobs.get(id)?.done;
  }

  /** Runs `execute` as job `id`; `onFailure` gets what it throws, `onSettled` runs after either way. */
  start(id: number, execute: (controller: AbortController) => Promise<void>, onFailure: JobFailure, onSettled: () => void): Promise<void> {
    const controller = new AbortController();
    // Every in-flight call listens on the job's signal (request and retry wait): allow for all.
    setMaxListeners(64, controller.signal);
    const done = execute(controller)
      .catch(onFailure)
      .finally(() => {
        this.jobs.delete(id);
        onSettled();
      });
    this.jobs.set(id, { controller, done });
    return done;
  }

  abort(id: number): void {
    this.jobs.get(id)?.controller.abort();
  }

  /** Aborts every job and waits for each to wind down (server shutdown). */
  async shutdown(): Promise<void> {
    for (const { controller } of this.jobs.values()) controller.abort();
    await Promise.allSettled([...this.jobs.values()].map((job) => job.done));
  }
}
