import type { Db } from '../../db/database';
import { recordAudit } from '../audit/audit-log';
import { createSession } from './sessions';

/** A successful login: the session and its audit entry, in one transaction. */
export function openLoginSession(db: Db, userId: number): { token: string; expiresAt: Date } {
  return db.transaction(() => {
    const session = createSession(db, userId);
    recordAudit(db, { actor_id: userId, action: 'login.succeeded', target_type: 'user', target_id: userId });
    return session;
  })();
}

/**
 * A refused login changes nothing else, so its entry stands alone. The name tried is kept (as
 * typed) because an unknown one has no user id; the password never is.
 */
export function recordFailedLogin(db: Db, username: string, userId: number | null): void {
  recordAudit(db, { actor_id: null, action: 'login.failed', ...(userId === null ? {} : { target_type: 'user', target_id: userId }), details: { username } });
}
