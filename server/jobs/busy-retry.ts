import { abortableSleep } from '../llm/retry';
import { isBusyError } from './storage-errors';

/**
 * Tries of a write that meets a database another connection holds (a CLI import, a second
 * server) past the busy timeout, each after a longer wait: SQLite's own wait has already passed,
 * and the other writer is usually done within a few seconds more.
 */
export const BUSY_ATTEMPTS = 4;
export const BUSY_BACKOFF_MS = 500;

/** The wait before try `attempt + 1` of a busy write. */
export function busyBackoff(attempt: number, backoffMs = BUSY_BACKOFF_MS): number {
  return backoffMs * attempt;
}

/** `step` retried while the database stays busy; the last error (or any other) is thrown. */
export async function busyRetried<T>(step: () => T, signal: AbortSignal, backoffMs = BUSY_BACKOFF_MS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return step();
    } catch (error) {
      if (!isBusyError(error) || attempt >= BUSY_ATTEMPTS || signal.aborted) throw error;
      await abortableSleep(busyBackoff(attempt, backoffMs), signal);
    }
  }
}
