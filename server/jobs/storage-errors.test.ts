import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { pauseReasonOf } from './storage-errors';

const sqliteError = (code: string, message: string) => new Database.SqliteError(message, code);

describe('pauseReasonOf: the one rule for whether a job pauses or fails', () => {
  it('pauses for a full or read-only disk and for a database locked past every retry, naming SQLite’s words', () => {
    expect(pauseReasonOf(sqliteError('SQLITE_FULL', 'database or disk is full'))).toBe('storage_unavailable: database or disk is full');
    expect(pauseReasonOf(sqliteError('SQLITE_READONLY', 'attempt to write a readonly database'))).toBe('storage_unavailable: attempt to write a readonly database');
    expect(pauseReasonOf(sqliteError('SQLITE_BUSY', 'database is locked'))).toBe('database_busy: database is locked');
  });

  it('fails for anything else: the work itself is wrong', () => {
    expect(pauseReasonOf(new Error('the program failed'))).toBeNull();
    expect(pauseReasonOf(sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed'))).toBeNull();
    expect(pauseReasonOf('a string')).toBeNull();
  });
});
