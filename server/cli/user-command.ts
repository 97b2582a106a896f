import { RoleSchema } from '../../shared/domain/roles';
import { PasswordSchema, UsernameSchema } from '../../shared/api/auth';
import { openAndMigrate } from '../../db/database';
import { loadConfig } from '../config';
import { DomainError } from '../domain-error';
import { auditedEvents } from '../events/subscribers';
import { createUser, disableUser, enableUser, resetPassword, revokeSessions, userIdByName, type AccountContext } from '../users/user-service';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `user add <name> --role <role>`: password from piped stdin, else generated and printed once. */
export async function runUserAdd(name: string, options: { role: string }): Promise<number> {
  const username = UsernameSchema.safeParse(name);
  if (!username.success) throw new Error(`username: ${username.error.issues[0]?.message}`);
  const role = RoleSchema.safeParse(options.role);
  if (!role.success) throw new Error(`--role: must be one of ${RoleSchema.options.join(', ')}`);
  let password: string | undefined;
  if (!process.stdin.isTTY) {
    const piped = (await readStdin()).replace(/\r?\n$/, '');
    if (piped !== '') {
      const checked = PasswordSchema.safeParse(piped);
      if (!checked.success) throw new Error(`password (stdin): ${checked.error.issues[0]?.message}`);
      password = checked.data;
    }
  }
  const db = openAndMigrate(loadConfig().dbPath);
  try {
    const { user, generatedPassword } = await createUser(db, username.data, role.data, password);
    process.stdout.write(`created ${user.role} "${user.username}"\n`);
    if (generatedPassword) process.stdout.write(`password (shown once): ${generatedPassword}\n`);
    return 0;
  } catch (error) {
    if (error instanceof DomainError) throw new Error(error.message, { cause: error });
    throw error;
  } finally {
    db.close();
  }
}

export type UserAction = 'disable' | 'enable' | 'reset-password' | 'revoke';

/** What each action does to the user named, and the lines it prints. */
const ACTIONS: Record<UserAction, (ctx: AccountContext, id: number) => Promise<string[]>> = {
  disable: (ctx, id) => {
    const { user, revokedSessions, unassignedItems } = disableUser(ctx, id);
    const unassigned = unassignedItems > 0 ? `; ${unassignedItems} item${unassignedItems === 1 ? '' : 's'} assigned to them back in the general queue` : '';
    return Promise.resolve([`disabled "${user.username}"; ended ${sessionCount(revokedSessions)}${unassigned}`]);
  },
  enable: (ctx, id) => Promise.resolve([`enabled "${enableUser(ctx, id).username}"`]),
  'reset-password': async (ctx, id) => {
    const { user, generatedPassword, revokedSessions } = await resetPassword(ctx, id);
    return [`reset the password of "${user.username}"; ended ${sessionCount(revokedSessions)}`, `password (shown once): ${generatedPassword}`];
  },
  revoke: (ctx, id) => {
    const { user, revokedSessions } = revokeSessions(ctx, id);
    return Promise.resolve([`ended ${sessionCount(revokedSessions)} of "${user.username}"`]);
  },
};

const sessionCount = (n: number) => `${n} session${n === 1 ? '' : 's'}`;

/**
 * `user disable|enable|reset-password|revoke <name>`: the same service functions as the Admin
 * page. This process holds no sockets: a running server closes the user's within its session
 * sweep (HQA_SESSION_SWEEP_MS), and their requests fail at once.
 */
export async function runUserAction(action: UserAction, name: string): Promise<number> {
  const db = openAndMigrate(loadConfig().dbPath);
  try {
    // Only the audit log subscribes here: the server's session sweep closes the user's sockets.
    const ctx: AccountContext = { db, events: auditedEvents(db) };
    const lines = await ACTIONS[action](ctx, userIdByName(db, name));
    process.stdout.write(lines.map((line) => `${line}\n`).join(''));
    return 0;
  } catch (error) {
    if (error instanceof DomainError) throw new Error(error.message, { cause: error });
    throw error;
  } finally {
    db.close();
  }
}
