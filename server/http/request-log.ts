import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { redactingLogger } from './log-redaction';

/** The health probe polls: its lines would drown the others. */
const HEALTH_PATH = '/api/health';

/** pino-http gives each request an id before anything is logged. */
type LoggedRequest = IncomingMessage & { id?: unknown; originalUrl?: string };

/**
 * One line per request. At info (production) it is short: id, method, URL, status, response
 * time — no headers, so no credential can be in it, and nothing is copied or censored per
 * request (the full serialisers and the redaction cost a claim more than its SQL does). At
 * debug the line carries the request's and response's headers, with credentials censored
 * (log-redaction.ts).
 */
export function requestLog(logger: Logger): RequestHandler {
  const autoLogging = { ignore: (req: IncomingMessage) => req.url === HEALTH_PATH };
  if (logger.isLevelEnabled('debug')) return pinoHttp({ logger: redactingLogger(logger), autoLogging });
  return pinoHttp({
    logger,
    autoLogging,
    // The line reads as it would in an access log: `GET /api/charts 200 3ms`.
    customSuccessMessage: (req: LoggedRequest, res, responseTime) => `${req.method} ${req.originalUrl ?? req.url} ${res.statusCode} ${Math.round(responseTime)}ms`,
    // The raw request and response reach these: pino's standard ones (which copy every header) never run.
    wrapSerializers: false,
    serializers: {
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: req.originalUrl ?? req.url }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
  });
}
