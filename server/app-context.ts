import type { Logger } from 'pino';
import type { Db } from '../db/database';
import type { ServerEventName, ServerEventPayload } from '../shared/events';
import type { Config } from './config';

/** Whose open sockets to close: all of a user's, or one session's. */
export type SocketTarget = { userId: number } | { sessionId: string };

/** What every domain's routes and services get: the database, settings, logger and the event bus. */
export interface AppContext {
  db: Db;
  config: Config;
  logger: Logger;
  publish: <E extends ServerEventName>(event: E, payload: ServerEventPayload<E>) => void;
  /** To one user's open clients only (e.g. their lease expired). */
  publishTo: <E extends ServerEventName>(userId: number, event: E, payload: ServerEventPayload<E>) => void;
  /**
   * Closes open sockets at once when the identity they were opened with ends or changes (logout,
   * disable, revoke, password reset, role change); a client still signed in reconnects as who it is now.
   */
  disconnectSockets: (target: SocketTarget) => void;
}
