import type { Logger } from 'pino';
import type { JobExecutor } from './job-kind';
import { JOB_TABLES, type JobTable } from './job-queries';

/**
 * Every kind of durable job a process runs, in one list: start-up takes up what a dead process
 * left unfinished and shutdown stops them all by iterating it, so a new job kind is resumed and
 * stopped by being registered, and one left out fails the server's start (each table of
 * `JOB_TABLES` must have exactly one executor).
 */
export class JobRegistry {
  private readonly executors: readonly JobExecutor[];

  constructor(executors: readonly JobExecutor[]) {
    const tables = executors.map((executor) => executor.kind.table);
    const twice = tables.filter((table, index) => tables.indexOf(table) !== index);
    if (twice.length > 0) throw new Error(`job table ${twice.join(', ')} has more than one executor registered`);
    const missing = (Object.keys(JOB_TABLES) as JobTable[]).filter((table) => !tables.includes(table));
    if (missing.length > 0) throw new Error(`job table ${missing.join(', ')} has no executor registered: its jobs would never resume after a restart`);
    this.executors = executors;
  }

  /** The tables registered, in order. */
  get tables(): JobTable[] {
    return this.executors.map((executor) => executor.kind.table);
  }

  /** At start: each kind takes up its orphans; one log line per kind that had any. The ids taken, per table. */
  resumeOrphans(logger: Logger): Partial<Record<JobTable, number[]>> {
    const taken: Partial<Record<JobTable, number[]>> = {};
    for (const executor of this.executors) {
      const ids = executor.resumeOrphans();
      if (ids.length === 0) continue;
      taken[executor.kind.table] = ids;
      logger.info({ table: executor.kind.table, jobs: ids }, `resumed ${ids.length} ${executor.kind.noun}${ids.length === 1 ? '' : 's'} left unfinished`);
    }
    return taken;
  }

  /** Stops every job of every kind and waits for all to wind down. */
  async shutdown(): Promise<void> {
    await Promise.all(this.executors.map((executor) => executor.shutdown()));
  }
}
