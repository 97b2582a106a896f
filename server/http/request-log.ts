import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { redactingLogger } from './log-redaction';
import { isQuiet } from './quiet-requests';

/** The health probe polls: its lines would drown the others. The server's own requests (quiet-requests.ts) are not logged either. */
const HEALTH_PATH = '/api/health';

/**
 * One line per request. At info (production) it is short — the request's id, method and URL,
 * the status, the response time, and the access-log message `GET /api/charts 200 3ms` — and
 * written straight to the logger when the response closes (answered, or the client gone first):
 * no headers, so no credential can be in it. pino-http would build two child loggers per request for this line; on a claim that
 * was a twentieth of the server's time (bench/review.ts profile). At debug pino-http writes
 * the request's and response's headers, with credentials censored (log-redaction.ts).
 */
export function requestLog(logger: Logger): RequestHandler {
  if (logger.isLevelEnabled('debug')) {
    return pinoHttp({ logger: redactingLogger(logger), autoLogging: { ignore: (req: IncomingMessage) => req.url === HEALTH_PATH || isQuiet(req) } });
  }
  if (!logger.isLevelEnabled('info')) return (_req, _res, next) => next();
  let lastId = 0;
  return (req: Request, res, next) => {
    if (req.url === HEALTH_PATH || isQuiet(req)) return next();
    const id = ++lastId;
    const start = performance.now();
    // The URL as asked: routers rewrite req.url on the way down.
    const url = req.originalUrl;
    // 'close' comes after the answer, or when the client went away first: that line says so.
    res.once('close', () => {
      const responseTime = Math.round(performance.now() - start);
      const aborted = res.writableFinished ? '' : ' (client closed the connection first)';
      logger.info({ req: { id, method: req.method, url }, res: { statusCode: res.statusCode }, responseTime }, `${req.method} ${url} ${res.statusCode} ${responseTime}ms${aborted}`);
    });
    next();
  };
}
