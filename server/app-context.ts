import type { Logger } from 'pino';
import type { Db } from '../db/database';
import type { ServerEventName, ServerEventPayload } from '../shared/events';
import type { Config } from './config';

/** What every domain's routes and services get: the database, settings, logger and the event bus. */
export interface AppContext {
  db: Db;
  config: Config;
  logger: Logger;
  publish: <E extends ServerEventName>(event: E, payload: ServerEventPayload<E>) => void;
  /** To one user's open clients only (e.g. their lease expired). */
  publishTo: <E extends ServerEventName>(userId: number, event: E, payload: ServerEventPayload<E>) => void;
}
