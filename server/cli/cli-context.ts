import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { AppContext } from '../app-context';
import type { Config } from '../config';
import { auditedEvents } from '../events/subscribers';

/**
 * The context a command runs job kinds in, in-process: the server's executors with no sockets.
 * What they publish goes to `publish` (a progress bar, a line per step); the audit log is the
 * only subscriber of their domain events, as in every process without sockets.
 */
export function cliContext(db: Db, config: Config, logger: Logger, publish: AppContext['publish'] = () => undefined): AppContext {
  return {
    db,
    config,
    logger,
    events: auditedEvents(db),
    publish,
    publishTo: () => undefined,
    disconnectSockets: () => undefined,
  };
}
