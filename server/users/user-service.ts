import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import type { User } from '../../shared/api/auth';
import type { AdminUser } from '../../shared/api/users';
import type { Role } from '../../shared/domain/roles';
import type { AppContext } from '../app-context';
import { generatePassword, hashPassword } from '../auth/passwords';
import { countLiveSessionsByUser } from '../auth/session-queries';
import { endUserSessions, sessionClock } from '../auth/sessions';
import { DomainError, notFound } from '../domain-error';
import type { DomainEventEmitter } from '../events/event-bus';
import { auditedEvents } from '../events/subscribers';
import {
  countAdmins,
  countPersonalAssignments,
  deletePersonalAssignments,
  findAccountByName,
  getAccount,
  insertUser,
  listAccounts,
  setPasswordHash,
  setUserDisabled,
  updateUserRole,
  type Account,
} from './user-queries';

/**
 * What an account change needs: the database, and where to say what changed (`user.access_changed`
 * closes the user's open sockets in the server; the CLI has none to close).
 */
export type AccountContext = Pick<AppContext, 'db' | 'events'>;

/**
 * Creates a user; without a password one is generated and returned once. `actorId`: who, for the
 * audit log (null: the CLI or first start). `events`: where it says so; by default a bus only the
 * audit log listens to, for callers with no sockets (the CLI, first start, tests and benches).
 */
export async function createUser(
  db: Db,
  username: string,
  role: Role,
  password?: string,
  actorId: number | null = null,
  events: DomainEventEmitter = auditedEvents(db),
): Promise<{ user: User; generatedPassword?: string }> {
  const generatedPassword = password ? undefined : generatePassword();
  const hash = await hashPassword(password ?? generatedPassword ?? '');
  const user = immediateTransaction(db, () => {
    const created = insertUser(db, username, role, hash);
    if (created) events.emit('user.created', { actor_id: actorId, user_id: created.id, username, role });
    return created;
  });
  if (!user) throw new DomainError('conflict', `a user named "${username}" already exists`, 'username');
  return generatedPassword ? { user, generatedPassword } : { user };
}

/** Every user with their live session count and personally assigned items, disabled ones included. */
export function listAdminUsers(db: Db): AdminUser[] {
  const sessions = countLiveSessionsByUser(db, sessionClock(db));
  const assigned = countPersonalAssignments(db);
  return listAccounts(db).map((account) => ({ ...account, active_sessions: sessions.get(account.id) ?? 0, assigned_items: assigned.get(account.id) ?? 0 }));
}

function accountOrThrow(db: Db, id: number): Account {
  const account = getAccount(db, id);
  if (!account) throw notFound(`user ${id}`);
  return account;
}

function adminUser(db: Db, id: number): AdminUser {
  const account = accountOrThrow(db, id);
  const sessions = countLiveSessionsByUser(db, sessionClock(db));
  return { ...account, active_sessions: sessions.get(id) ?? 0, assigned_items: countPersonalAssignments(db).get(id) ?? 0 };
}

/** The id of the user named `username` (any case), for the CLI. */
export function userIdByName(db: Db, username: string): number {
  const account = findAccountByName(db, username);
  if (!account) throw notFound(`user "${username}"`);
  return account.id;
}

/** Refuses to leave the workbench without an enabled admin: `account` losing admin rights must not be the last. */
function refuseLastAdmin(db: Db, account: Account, action: string, field?: string): void {
  if (account.role === 'admin' && account.disabled_at === null && countAdmins(db) <= 1) {
    const message = `cannot ${action} "${account.username}": they are the last enabled admin; make another user admin first`;
    throw new DomainError('conflict', message, field);
  }
}

/**
 * Changes a role, refusing to leave the workbench without an admin. The user's open sockets
 * close, so none keeps acting (or receiving) under the old role; requests read the role anew.
 */
export function changeRole(ctx: AccountContext, id: number, role: Role, actorId: number | null = null): AdminUser {
  const { db } = ctx;
  immediateTransaction(db, () => {
    const account = accountOrThrow(db, id);
    if (account.disabled_at !== null) throw new DomainError('conflict', `"${account.username}" is disabled: enable the account before changing its role`, 'role');
    if (role !== 'admin') refuseLastAdmin(db, account, 'take the admin role from', 'role');
    updateUserRole(db, id, role);
    ctx.events.emit('user.role_changed', { actor_id: actorId, user_id: id, from: account.role, to: role });
    ctx.events.emit('user.access_changed', { user_id: id });
  });
  return adminUser(db, id);
}

/**
 * Disables a user: they cannot log in, every session of theirs ends with its sockets, and the
 * items assigned to them personally are unassigned in the same transaction — nobody else could
 * claim them otherwise. Their queue memberships stay (a queue's other members still serve it).
 */
export function disableUser(
  ctx: AccountContext,
  id: number,
  actorId: number | null = null,
  now = new Date(),
): { user: AdminUser; revokedSessions: number; unassignedItems: number } {
  const { db } = ctx;
  const { ended, unassigned } = immediateTransaction(db, () => {
    const account = accountOrThrow(db, id);
    if (account.disabled_at !== null) {
      ctx.events.emit('user.access_changed', { user_id: id });
      return { ended: 0, unassigned: 0 };
    }
    refuseLastAdmin(db, account, 'disable');
    setUserDisabled(db, id, now.toISOString());
    const revoked = endUserSessions(db, id, now);
    const freed = deletePersonalAssignments(db, id);
    ctx.events.emit('user.disabled', { actor_id: actorId, user_id: id, revoked_sessions: revoked, items_unassigned: freed });
    ctx.events.emit('user.access_changed', { user_id: id });
    if (freed > 0) ctx.events.emit('assignment.changed', { items: freed });
    return { ended: revoked, unassigned: freed };
  });
  return { user: adminUser(db, id), revokedSessions: ended, unassignedItems: unassigned };
}

/** Lets a disabled user log in again; sessions that ended with the disable stay ended. */
export function enableUser(ctx: AccountContext, id: number, actorId: number | null = null): AdminUser {
  immediateTransaction(ctx.db, () => {
    accountOrThrow(ctx.db, id);
    setUserDisabled(ctx.db, id, null);
    ctx.events.emit('user.enabled', { actor_id: actorId, user_id: id });
  });
  return adminUser(ctx.db, id);
}

/** Ends every session of a user (each signed-in browser must log in again). `actorId`: who, for the audit log (null: the CLI). */
export function revokeSessions(ctx: AccountContext, id: number, actorId: number | null = null): { user: AdminUser; revokedSessions: number } {
  const { db } = ctx;
  const revokedSessions = immediateTransaction(db, () => {
    accountOrThrow(db, id);
    const ended = endUserSessions(db, id);
    ctx.events.emit('user.sessions_revoked', { actor_id: actorId, user_id: id, revoked_sessions: ended });
    ctx.events.emit('user.access_changed', { user_id: id });
    return ended;
  });
  return { user: adminUser(db, id), revokedSessions };
}

/**
 * Gives a user a generated password, returned this once, and ends their sessions: a reset is
 * for a password that is lost or known to someone else, who must not stay signed in with it.
 * `actorId`: who, for the audit log (null: the CLI).
 */
export async function resetPassword(
  ctx: AccountContext,
  id: number,
  actorId: number | null = null,
): Promise<{ user: AdminUser; generatedPassword: string; revokedSessions: number }> {
  const { db } = ctx;
  accountOrThrow(db, id);
  const generatedPassword = generatePassword();
  const hash = await hashPassword(generatedPassword);
  const revokedSessions = immediateTransaction(db, () => {
    accountOrThrow(db, id);
    setPasswordHash(db, id, hash);
    const ended = endUserSessions(db, id);
    ctx.events.emit('user.password_reset', { actor_id: actorId, user_id: id, revoked_sessions: ended });
    ctx.events.emit('user.access_changed', { user_id: id });
    return ended;
  });
  return { user: adminUser(db, id), generatedPassword, revokedSessions };
}
