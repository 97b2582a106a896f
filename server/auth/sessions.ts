import { createHash, randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Db } from '../../db/database';
import type { User } from '../../shared/api/auth';
import { getSetting } from '../settings/settings-queries';
import {
  deleteSession,
  deleteUserSessions,
  findLiveSession,
  insertSession,
  liveSessionsAmong,
  touchSession,
  type SessionClock,
} from './session-queries';

/** A session's absolute life, however busy it is. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * A session's last-seen time is written at most this often: idle expiry counts in minutes,
 * and a write on every request would serialise reads behind SQLite's one writer.
 */
export const SESSION_TOUCH_MS = 60_000;

/** A live session: its user as they are now, and its id (the token's hash, never the token). */
export interface LiveSession {
  id: string;
  user: User;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Now, and the last-seen time a session must be after not to be idle (the session_idle_minutes setting). */
export function sessionClock(db: Db, now = new Date()): SessionClock {
  const idleMs = getSetting(db, 'session_idle_minutes') * 60_000;
  return { now: now.toISOString(), idleSince: new Date(now.getTime() - idleMs).toISOString() };
}

export function createSession(db: Db, userId: number, now = new Date()): { token: string; expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  insertSession(db, hashToken(token), userId, now.toISOString(), expiresAt.toISOString());
  return { token, expiresAt };
}

/** The live session of a cookie's token, or null; marks it seen (at most once per SESSION_TOUCH_MS). */
export function sessionForToken(db: Db, token: string | undefined, now = new Date()): LiveSession | null {
  if (!token) return null;
  const id = hashToken(token);
  const found = findLiveSession(db, id, sessionClock(db, now));
  if (!found) return null;
  if (now.getTime() - Date.parse(found.lastSeenAt) >= SESSION_TOUCH_MS) {
    try {
      touchSession(db, id, now.toISOString());
    } catch (error) {
      // Last-seen is bookkeeping: a read must still work on a read-only or full database (or
      // while another process holds the write lock past the busy timeout).
      if (!(error instanceof Database.SqliteError)) throw error;
    }
  }
  return { id, user: found.user };
}

export function userForToken(db: Db, token: string | undefined, now = new Date()): User | null {
  return sessionForToken(db, token, now)?.user ?? null;
}

/** Ends the session of a token; returns its id, so its sockets can be closed too. */
export function endSession(db: Db, token: string): string {
  const id = hashToken(token);
  deleteSession(db, id);
  return id;
}

/** Ends every session of a user; returns how many were live. */
export function endUserSessions(db: Db, userId: number, now = new Date()): number {
  return deleteUserSessions(db, userId, sessionClock(db, now));
}

/** Of these session ids, the live ones, with their user's id and role as they are now. */
export function liveSessions(db: Db, ids: string[], now = new Date()): Map<string, { userId: number; role: string }> {
  return ids.length === 0 ? new Map() : liveSessionsAmong(db, ids, sessionClock(db, now));
}
