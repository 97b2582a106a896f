import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { setUserDisabled, updateUserRole } from '../users/user-queries';
import { createUser } from '../users/user-service';
import { createSession, endSession, endUserSessions, SESSION_TTL_MS, sessionForToken } from './sessions';

/**
 * Whatever ends a session or changes its user is seen by the very next lookup, on this
 * connection or from another one — what any cache of lookups (there is none: a lookup costs
 * ~15 µs of a claim's ~2 ms) would have to keep.
 */
let dir: string;
let db: Db;
let userId: number;
let token: string;
const start = new Date('2026-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(start.getTime() + ms);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-sessions-'));
  db = openAndMigrate(join(dir, 'hqa.sqlite'));
  userId = (await createUser(db, 'ann', 'reviewer', 'ann-pass-123')).user.id;
  token = createSession(db, userId, start).token;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const roleNow = (at = later(1000)) => sessionForToken(db, token, at)?.user.role ?? null;

describe('sessionForToken, read again after every change', () => {
  it('sees a role change and a disabled user made on this connection at once', () => {
    expect(roleNow()).toBe('reviewer');
    expect(roleNow()).toBe('reviewer');
    updateUserRole(db, userId, 'curator');
    expect(roleNow()).toBe('curator');
    setUserDisabled(db, userId, later(2000).toISOString());
    expect(roleNow()).toBeNull();
  });

  it('sees a session ended by its token or with all of its user’s', () => {
    expect(roleNow()).toBe('reviewer');
    endSession(db, token);
    expect(roleNow()).toBeNull();
    token = createSession(db, userId, start).token;
    expect(roleNow()).toBe('reviewer');
    endUserSessions(db, userId, later(1000));
    expect(roleNow()).toBeNull();
  });

  it('sees a change committed by another connection (hqa user in another process)', () => {
    expect(roleNow()).toBe('reviewer');
    const other = openAndMigrate(db.name);
    try {
      setUserDisabled(other, userId, later(2000).toISOString());
    } finally {
      other.close();
    }
    expect(roleNow()).toBeNull();
  });

  it('forgets what it read inside a transaction that rolled back', () => {
    expect(roleNow()).toBe('reviewer');
    const rollback = new Error('rolled back');
    expect(() =>
      db.transaction(() => {
        updateUserRole(db, userId, 'curator');
        expect(roleNow()).toBe('curator');
        throw rollback;
      })(),
    ).toThrow(rollback);
    expect(roleNow()).toBe('reviewer');
  });

  it('ends a session read before at its absolute end and when idle, by the clock of each lookup', () => {
    expect(roleNow(later(1000))).toBe('reviewer');
    expect(roleNow(later(SESSION_TTL_MS + 1))).toBeNull();
    expect(roleNow(later(1000))).toBe('reviewer');
    // Unused for longer than session_idle_minutes (12 hours by default), well before the absolute end.
    expect(roleNow(later(13 * 60 * 60 * 1000))).toBeNull();
  });
});
