import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { User } from '../../shared/api/auth';
import { RoleSchema, type Role } from '../../shared/domain/roles';

/** All SQL of users (sessions: server/auth/session-queries.ts). */

export interface UserRow {
  id: number;
  username: string;
  role: string;
  created_at: string;
}

export const toUser = (row: UserRow): User => ({ ...row, role: RoleSchema.parse(row.role) });

/** A user, enabled or not: what the admin manages. */
export interface Account extends User {
  disabled_at: string | null;
}

const toAccount = (row: UserRow & { disabled_at: string | null }): Account => ({ ...toUser(row), disabled_at: row.disabled_at });

/** Every user, disabled ones too (an admin re-enables them from the list). */
export function listAccounts(db: Db): Account[] {
  const rows = statement(db, 'SELECT id, username, role, created_at, disabled_at FROM users ORDER BY username').all() as (UserRow & { disabled_at: string | null })[];
  return rows.map(toAccount);
}

export function getAccount(db: Db, id: number): Account | null {
  const row = statement(db, 'SELECT id, username, role, created_at, disabled_at FROM users WHERE id = ?').get(id) as
    | (UserRow & { disabled_at: string | null })
    | undefined;
  return row ? toAccount(row) : null;
}

export function findAccountByName(db: Db, username: string): Account | null {
  const row = statement(db, 'SELECT id, username, role, created_at, disabled_at FROM users WHERE username = ?').get(username) as
    | (UserRow & { disabled_at: string | null })
    | undefined;
  return row ? toAccount(row) : null;
}

/** Disables (at `at`) or re-enables (null) a user. */
export function setUserDisabled(db: Db, id: number, at: string | null): void {
  statement(db, 'UPDATE users SET disabled_at = ? WHERE id = ?').run(at, id);
}

export function setPasswordHash(db: Db, id: number, passwordHash: string): void {
  statement(db, 'UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, id);
}

export function getUser(db: Db, id: number): User | null {
  const row = statement(db, 'SELECT id, username, role, created_at FROM users WHERE id = ? AND disabled_at IS NULL').get(id) as UserRow | undefined;
  return row ? toUser(row) : null;
}

export function findUserForLogin(db: Db, username: string): (User & { password_hash: string }) | null {
  const row = statement(db, 'SELECT id, username, role, created_at, password_hash FROM users WHERE username = ? AND disabled_at IS NULL')
    .get(username) as (UserRow & { password_hash: string }) | undefined;
  return row ? { ...toUser(row), password_hash: row.password_hash } : null;
}

/** Inserts a user; returns null when the name is taken (names are case-insensitive). */
export function insertUser(db: Db, username: string, role: Role, passwordHash: string): User | null {
  const result = statement(db, 'INSERT OR IGNORE INTO users (username, role, password_hash) VALUES (?, ?, ?)').run(username, role, passwordHash);
  return result.changes === 0 ? null : getUser(db, Number(result.lastInsertRowid));
}

export function updateUserRole(db: Db, id: number, role: Role): User | null {
  statement(db, 'UPDATE users SET role = ? WHERE id = ? AND disabled_at IS NULL').run(role, id);
  return getUser(db, id);
}

export function countUsers(db: Db): number {
  return (statement(db, 'SELECT COUNT(*) AS n FROM users').get() as { n: number }).n;
}

export function countAdmins(db: Db): number {
  return (statement(db, "SELECT COUNT(*) AS n FROM users WHERE role = 'admin' AND disabled_at IS NULL").get() as { n: number }).n;
}

/** Items assigned to each user personally (migration 021; queue assignments are the queue's): what disabling them gives back to the general queue. */
export function countPersonalAssignments(db: Db): Map<number, number> {
  const rows = statement(db, 'SELECT reviewer_id AS id, COUNT(*) AS n FROM item_assignments WHERE reviewer_id IS NOT NULL GROUP BY reviewer_id').all() as { id: number; n: number }[];
  return new Map(rows.map((row) => [row.id, row.n]));
}

/** Unassigns every item assigned to this user personally; how many were. */
export function deletePersonalAssignments(db: Db, userId: number): number {
  return statement(db, 'DELETE FROM item_assignments WHERE reviewer_id = ?').run(userId).changes;
}
