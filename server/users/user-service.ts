import type { Db } from '../../db/database';
import type { User } from '../../shared/api/auth';
import type { Role } from '../../shared/domain/roles';
import { generatePassword, hashPassword } from '../auth/passwords';
import { HttpError, notFound } from '../http/http-error';
import { countAdmins, getUser, insertUser, updateUserRole } from './user-queries';

/** Creates a user; without a password one is generated and returned once. */
export async function createUser(db: Db, username: string, role: Role, password?: string): Promise<{ user: User; generatedPassword?: string }> {
  const generatedPassword = password ? undefined : generatePassword();
  const hash = await hashPassword(password ?? generatedPassword ?? '');
  const user = insertUser(db, username, role, hash);
  if (!user) throw new HttpError('conflict', `a user named "${username}" already exists`, 'username');
  return generatedPassword ? { user, generatedPassword } : { user };
}

/** Changes a role, refusing to leave the workbench without an admin. */
export function changeRole(db: Db, id: number, role: Role): User {
  return db.transaction(() => {
    const user = getUser(db, id);
    if (!user) throw notFound(`user ${id}`);
    if (user.role === 'admin' && role !== 'admin' && countAdmins(db) <= 1) {
      throw new HttpError('conflict', 'cannot take the role of the last admin', 'role');
    }
    const updated = updateUserRole(db, id, role);
    if (!updated) throw notFound(`user ${id}`);
    return updated;
  })();
}
