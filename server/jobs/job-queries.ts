import { preparedOnce, type Db } from '../../db/database';
import type { JobOwner } from './job-owner';

/** All SQL of job ownership, for every table that holds durable jobs. */

/**
 * The tables that hold durable jobs, each with the statuses of a job not yet finished (one a
 * process may be working, or should resume). Job SQL is built only from these names, never
 * from input.
 */
export const JOB_TABLES = {
  runs: ['running', 'queued'],
  eval_runs: ['running', 'queued'],
  reflection_batches: ['running'],
  extraction_jobs: ['running', 'queued'],
  chart_type_jobs: ['running', 'queued'],
} as const satisfies Record<string, readonly string[]>;

export type JobTable = keyof typeof JOB_TABLES;

/** A process that owns jobs: its pid on its host. */
export interface Owner {
  pid: number;
  host: string;
}

export interface JobOwnerRow extends JobOwner {
  id: number;
}

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

function prepareFor(db: Db, table: JobTable) {
  const unfinished = JOB_TABLES[table].map((status) => `'${status}'`).join(', ');
  return {
    owner: db.prepare<[number], JobOwnerRow>(`SELECT id, owner_pid, owner_host, heartbeat_at FROM ${table} WHERE id = ?`),
    // Compare-and-set on the owner as read: of two processes judging the same owner gone, one wins.
    claim: db.prepare<[{ id: number; pid: number; host: string; wasPid: number | null; wasHost: string | null; wasHeartbeat: string | null }]>(
      `UPDATE ${table} SET owner_pid = @pid, owner_host = @host, heartbeat_at = ${NOW}
       WHERE id = @id AND owner_pid IS @wasPid AND owner_host IS @wasHost AND heartbeat_at IS @wasHeartbeat`,
    ),
    heartbeat: db.prepare<[{ id: number; pid: number; host: string }]>(`UPDATE ${table} SET heartbeat_at = ${NOW} WHERE id = @id AND owner_pid = @pid AND owner_host = @host`),
    // The host and last heartbeat stay, as a record of who worked the job last.
    release: db.prepare<[{ id: number; pid: number; host: string }]>(`UPDATE ${table} SET owner_pid = NULL WHERE id = @id AND owner_pid = @pid AND owner_host = @host`),
    unfinished: db.prepare<[], JobOwnerRow>(`SELECT id, owner_pid, owner_host, heartbeat_at FROM ${table} WHERE status IN (${unfinished}) ORDER BY id`),
  };
}

const statements = preparedOnce((db) => ({
  runs: prepareFor(db, 'runs'),
  eval_runs: prepareFor(db, 'eval_runs'),
  reflection_batches: prepareFor(db, 'reflection_batches'),
  extraction_jobs: prepareFor(db, 'extraction_jobs'),
  chart_type_jobs: prepareFor(db, 'chart_type_jobs'),
}));

export function jobOwner(db: Db, table: JobTable, id: number): JobOwnerRow | null {
  return statements(db)[table].owner.get(id) ?? null;
}

/** Makes `owner` the job's owner if its owner is still `was` (as read when judged gone); whether it did. */
export function claimJob(db: Db, table: JobTable, id: number, owner: Owner, was: JobOwner): boolean {
  return (
    statements(db)[table].claim.run({ id, pid: owner.pid, host: owner.host, wasPid: was.owner_pid, wasHost: was.owner_host, wasHeartbeat: was.heartbeat_at }).changes === 1
  );
}

/** Proves `owner` alive; false if the job is no longer theirs (another process took it over). */
export function heartbeatJob(db: Db, table: JobTable, id: number, owner: Owner): boolean {
  return statements(db)[table].heartbeat.run({ id, ...owner }).changes === 1;
}

/** Gives the job up, if `owner` still holds it: any process may take it at once. */
export function releaseJob(db: Db, table: JobTable, id: number, owner: Owner): void {
  statements(db)[table].release.run({ id, ...owner });
}

/** Jobs not finished (whoever owns them), oldest first. */
export function unfinishedJobs(db: Db, table: JobTable): JobOwnerRow[] {
  return statements(db)[table].unfinished.all();
}
