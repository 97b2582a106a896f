import { isStorageFailure } from '../../db/storage-errors';

/**
 * Errors that say the database cannot be written now (a full disk, a read-only file or mount,
 * an I/O error), not that the work is wrong: a job meeting one pauses with this reason and is
 * resumed once there is room again, instead of failing for good.
 */
export const STORAGE_UNAVAILABLE = 'storage_unavailable';

/** The storage rule is the database's own (db/storage-errors.ts): one list of SQLite codes for start-up and jobs alike. */
export function isStorageError(error: unknown): boolean {
  return isStorageFailure(error);
}

/** The stop reason of a job paused by `error`: `storage_unavailable: <SQLite's words>`. */
export function storagePauseReason(error: unknown): string {
  return `${STORAGE_UNAVAILABLE}: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Another connection (a CLI import, a second server) holds the write lock past the busy timeout,
 * or a read snapshot could not become a write: the work is fine and may simply be tried again.
 */
export function isBusyError(error: unknown): boolean {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(error.code);
}

/** The stop reason of a job paused because the database stayed busy: resumable, like a full disk. */
export const DATABASE_BUSY = 'database_busy';

/**
 * Why a job meeting `error` pauses rather than fails, or null when it should fail: the one rule
 * every job kind follows (a full or read-only disk, a database another process keeps locked past
 * every retry). Neither is the work's fault; a resume picks it up once the cause has passed.
 */
export function pauseReasonOf(error: unknown): string | null {
  if (isStorageError(error)) return storagePauseReason(error);
  if (isBusyError(error)) return `${DATABASE_BUSY}: ${error instanceof Error ? error.message : String(error)}`;
  return null;
}
