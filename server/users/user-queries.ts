import type { Db } from '../../db/database';
import type { User } from '../../shared/api/auth';
import { RoleSchema, type Role } from '../../shared/domain/roles';

/** All SQL of users and sessions. */

interface UserRow {
  id: number;
  username: string;
  role: string;
  created_at: string;
}

const toUser = (row: UserRow): User => ({ ...row, role: RoleSchema.parse(row.role) });

export function listUsers(db: Db): User[] {
  return (db.prepare('SELECT id, username, role, created_at FROM users WHERE disabled_at IS NULL ORDER BY username').all() as UserRow[]).map(toUser);
}

export function getUser(db: Db, id: number): User | null {
  const row = db.prepare('SELECT id, username, role, created_at FROM users WHERE id = ? AND disabled_at IS NULL').get(id) as UserRow | undefined;
  return row ? toUser(row) : null;
}

export function findUserForLogin(db: Db, username: string): (User & { password_hash: string }) | null {
  const row = db
    .prepare('SELECT id, username, role, created_at, password_hash FROM users WHERE username = ? AND disabled_at IS NULL')
    .get(username) as (UserRow & { password_hash: string }) | undefined;
  return row ? { ...toUser(row), password_hash: row.password_hash } : null;
}

/** Inserts a user; returns null when the name is taken (names are case-insensitive). */
export function insertUser(db: Db, username: string, role: Role, passwordHash: string): User | null {
  const result = db.prepare('INSERT OR IGNORE INTO users (username, role, password_hash) VALUES (?, ?, ?)').run(username, role, passwordHash);
  return result.changes === 0 ? null : getUser(db, Number(result.lastInsertRowid));
}

export function updateUserRole(db: Db, id: number, role: Role): User | null {
  db.prepare('UPDATE users SET role = ? WHERE id = ? AND disabled_at IS NULL').run(role, id);
  return getUser(db, id);
}

export function countUsers(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number }).n;
}

export function countAdmins(db: Db): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM users WHERE role = 'admin' AND disabled_at IS NULL").get() as { n: number }).n;
}

export function insertSession(db: Db, tokenHash: string, userId: number, expiresAt: string): void {
  db.prepare('INSERT INTO sessions (token_hash, user_id, expires_at) VALUES (?, ?, ?)').run(tokenHash, userId, expiresAt);
}

export function findSessionUser(db: Db, tokenHash: string, now: string): User | null {
  const row = db
    .prepare(
      `SELECT u.id, u.username, u.role, u.created_at FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = ? AND s.expires_at > ? AND u.disabled_at IS NULL`,
    )
    .get(tokenHash, now) as UserRow | undefined;
  return row ? toUser(row) : null;
}

export function deleteSession(db: Db, tokenHash: string): void {
  db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash);
}

export function deleteExpiredSessions(db: Db, now: string): number {
  return db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(now).changes;
}
