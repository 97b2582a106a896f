import { hostname } from 'node:os';

/**
 * A background job's owner (generation and evaluation runs, reflection batches), recorded so
 * another process can take over. `owner_pid` null: nobody owns it (never started, or released).
 */
export interface JobOwner {
  owner_pid: number | null;
  owner_host: string | null;
  heartbeat_at: string | null;
}

/** How often a running job proves its owner is alive. */
export const HEARTBEAT_MS = 5_000;
/** A job on another host whose heartbeat is older than this is taken over. */
export const STALE_OWNER_MS = 60_000;

/** Whether a process of this host still runs (EPERM: it does, under another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process, as it records itself as a job's owner. */
export function thisProcess(): { pid: number; host: string } {
  return { pid: process.pid, host: hostname() };
}

/**
 * Whether a job left running belongs to nobody, as `self` sees it: on its host the owner's
 * process is gone (a pid check is exact); on another host its heartbeat went stale (all we can
 * know from there). A job `self` owns is not gone.
 */
export function ownerGone(job: JobOwner, self = thisProcess(), now = Date.now()): boolean {
  if (job.owner_pid === null) return true;
  if (job.owner_host === self.host) return job.owner_pid !== self.pid && !isAlive(job.owner_pid);
  return now - Date.parse(job.heartbeat_at ?? '') > STALE_OWNER_MS;
}
