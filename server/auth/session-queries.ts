import { preparedOnce, type Db } from '../../db/database';
import type { User } from '../../shared/api/auth';
import { toUser, type UserRow } from '../users/user-queries';

/**
 * All SQL of sessions. A session is live while it is before its absolute end (`expires_at`),
 * was used after the idle cutoff (`last_seen_at`), and its user is enabled. Times are ISO
 * strings, which compare in time order.
 */

const LIVE = 's.expires_at > @now AND s.last_seen_at > @idleSince AND u.disabled_at IS NULL';

function prepare(db: Db) {
  return {
    insert: db.prepare('INSERT INTO sessions (token_hash, user_id, last_seen_at, expires_at) VALUES (?, ?, ?, ?)'),
    findLive: db.prepare(
      `SELECT u.id, u.username, u.role, u.created_at, s.last_seen_at FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = @tokenHash AND ${LIVE}`,
    ),
    touch: db.prepare('UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?'),
    liveOf: db.prepare(
      `SELECT s.token_hash, u.id AS user_id, u.role FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash IN (SELECT value FROM json_each(@tokenHashes)) AND ${LIVE}`,
    ),
    liveCountByUser: db.prepare(`SELECT s.user_id, COUNT(*) AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE ${LIVE} GROUP BY s.user_id`),
    delete: db.prepare('DELETE FROM sessions WHERE token_hash = ?'),
    deleteOfUser: db.prepare('DELETE FROM sessions WHERE user_id = @userId RETURNING (expires_at > @now AND last_seen_at > @idleSince) AS live'),
  };
}

const statements = preparedOnce(prepare);

/** Where a session's liveness is checked: now, and the last-seen time below which it is idle. */
export interface SessionClock {
  now: string;
  idleSince: string;
}

export function insertSession(db: Db, tokenHash: string, userId: number, now: string, expiresAt: string): void {
  statements(db).insert.run(tokenHash, userId, now, expiresAt);
}

export function findLiveSession(db: Db, tokenHash: string, clock: SessionClock): { user: User; lastSeenAt: string } | null {
  const row = statements(db).findLive.get({ tokenHash, ...clock }) as (UserRow & { last_seen_at: string }) | undefined;
  if (!row) return null;
  const { last_seen_at: lastSeenAt, ...user } = row;
  return { user: toUser(user), lastSeenAt };
}

export function touchSession(db: Db, tokenHash: string, now: string): void {
  statements(db).touch.run(now, tokenHash);
}

/** Of these sessions, the live ones with their user and the user's role now. */
export function liveSessionsAmong(db: Db, tokenHashes: string[], clock: SessionClock): Map<string, { userId: number; role: string }> {
  const rows = statements(db).liveOf.all({ tokenHashes: JSON.stringify(tokenHashes), ...clock }) as {
    token_hash: string;
    user_id: number;
    role: string;
  }[];
  return new Map(rows.map((row) => [row.token_hash, { userId: row.user_id, role: row.role }]));
}

/** Live sessions per user, for the admin's list. */
export function countLiveSessionsByUser(db: Db, clock: SessionClock): Map<number, number> {
  const rows = statements(db).liveCountByUser.all(clock) as { user_id: number; n: number }[];
  return new Map(rows.map((row) => [row.user_id, row.n]));
}

export function deleteSession(db: Db, tokenHash: string): void {
  statements(db).delete.run(tokenHash);
}

/** Ends every session of a user; returns how many of them were live (dead ones go too). */
export function deleteUserSessions(db: Db, userId: number, clock: SessionClock): number {
  const rows = statements(db).deleteOfUser.all({ userId, ...clock }) as { live: number }[];
  return rows.filter((row) => row.live === 1).length;
}
