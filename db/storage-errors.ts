import Database from 'better-sqlite3';

/**
 * SQLite result codes that say the storage, not the statement, is at fault: a full disk,
 * a read-only file or folder, an I/O failure, a file that cannot be opened. Extended codes
 * (SQLITE_READONLY_DIRECTORY, SQLITE_IOERR_WRITE, …) share their primary code's prefix.
 */
const STORAGE_CODES = ['SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_IOERR', 'SQLITE_CANTOPEN'];

/** The same conditions as Node reports them, before SQLite is reached (creating the folder). */
const FS_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC']);

/** Whether a database error means the storage cannot take writes (full, read-only, failing). */
export function isStorageFailure(error: unknown): error is Database.SqliteError {
  return error instanceof Database.SqliteError && STORAGE_CODES.some((code) => error.code === code || error.code.startsWith(`${code}_`));
}

/** A database the server or CLI cannot write: they refuse to start with this one line. */
export class DatabaseUnwritableError extends Error {
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    const code = (cause as { code?: unknown }).code;
    const reason = `${cause instanceof Error ? cause.message : String(cause)}${typeof code === 'string' ? `, ${code}` : ''}`;
    super(`${path}: the database cannot be written (${reason}); check the permissions of the file and its folder, and free disk space`, { cause });
    this.name = 'DatabaseUnwritableError';
  }
}

/** Whether an error while opening a database means it cannot be written (vs. a bug or a bad migration). */
export function isUnwritable(error: unknown): boolean {
  if (isStorageFailure(error)) return true;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return !(error instanceof Database.SqliteError) && typeof code === 'string' && FS_CODES.has(code);
}

/**
 * Refuses a database that cannot take writes before anything runs on it. SQLite opens a
 * file it may not write read-only without a word (and WAL mode and `CREATE TABLE IF NOT
 * EXISTS` still succeed), so only a write tells: the header's user_version is set to the
 * value it has, in a transaction that is rolled back.
 */
export function probeWritable(db: Database.Database): void {
  const version = Number(db.pragma('user_version', { simple: true }));
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    // Another connection holds the write lock past the busy timeout (the server beside a
    // CLI command): the file takes writes; this process's first write waits its turn.
    if (error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY')) return;
    throw error;
  }
  try {
    db.pragma(`user_version = ${version}`);
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
}
