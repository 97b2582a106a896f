import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import type { DomainEventEmitter } from '../events/event-bus';
import { createSession, endSession } from './sessions';

/** A successful login: the session and its audit entry (`login.succeeded`), in one transaction. */
export function openLoginSession(db: Db, events: DomainEventEmitter, userId: number): { token: string; expiresAt: Date } {
  return immediateTransaction(db, () => {
    const session = createSession(db, userId);
    events.emit('login.succeeded', { user_id: userId });
    return session;
  });
}

/**
 * A refused login changes nothing else, so its event is a write of its own. The name tried is
 * kept (as typed) because an unknown one has no user id; the password never is.
 */
export function recordFailedLogin(events: DomainEventEmitter, username: string, userId: number | null): void {
  events.emit('login.failed', { username, user_id: userId });
}

/** Logout: ends the sessions of these tokens; each one's sockets close once it commits (`session.ended`). */
export function endLoginSessions(db: Db, events: DomainEventEmitter, tokens: readonly string[]): void {
  if (tokens.length === 0) return;
  immediateTransaction(db, () => {
    for (const token of tokens) events.emit('session.ended', { session_id: endSession(db, token) });
  });
}
