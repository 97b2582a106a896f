import type { Logger } from 'pino';
import type { Db } from '../db/database';
import type { ServerEventName, ServerEventPayload } from '../shared/events';
import type { Config } from './config';
import type { DomainEventEmitter } from './events/event-bus';

/**
 * Blind review: what the reviewers among `users` get of an event instead of what everyone else
 * gets — `payload`, or nothing when null. Curators and admins among them get the event itself.
 */
export interface SealedView<E extends ServerEventName> {
  users: readonly number[];
  payload: ServerEventPayload<E> | null;
}

/** Whose open sockets to close: all of a user's, or one session's. */
export type SocketTarget = { userId: number } | { sessionId: string };

/** What every domain's routes and services get: the database, settings, logger, domain events and the socket bus. */
export interface AppContext {
  db: Db;
  config: Config;
  logger: Logger;
  /** Where commands say what their writes did, inside the write's transaction (`server/events/`). */
  events: DomainEventEmitter;
  /** To everyone; `sealed`: what some reviewers get instead (blind review). */
  publish: <E extends ServerEventName>(event: E, payload: ServerEventPayload<E>, sealed?: SealedView<E>) => void;
  /** To one user's open clients only (e.g. their lease expired). */
  publishTo: <E extends ServerEventName>(userId: number, event: E, payload: ServerEventPayload<E>) => void;
  /**
   * Closes open sockets at once when the identity they were opened with ends or changes (logout,
   * disable, revoke, password reset, role change); a client still signed in reconnects as who it is now.
   */
  disconnectSockets: (target: SocketTarget) => void;
}
