import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { isStorageFailure } from '../../db/storage-errors';
import type { ErrorBody } from '../../shared/errors';
import { bodyReadError } from './body-errors';
import { HttpError } from './http-error';

export function apiNotFound(): RequestHandler {
  return (req, _res, next) => next(new HttpError('not_found', `no API route ${req.method} ${req.path}`));
}

/** Turns any error into the one error body; internals are logged, never sent. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    let httpError: HttpError;
    const bodyError = bodyReadError(error, req.headers['content-encoding']);
    if (error instanceof HttpError) httpError = error;
    else if (bodyError) httpError = bodyError;
    else if (isStorageFailure(error)) {
      // Full disk, read-only file or failing I/O: the operator must hear of it; the client may
      // retry later. Writes are transactions, so the failed one left nothing behind.
      logger.error({ err: error, method: req.method, url: req.originalUrl }, 'the database cannot take writes');
      httpError = new HttpError('storage_unavailable', 'the database cannot take writes right now (disk full or read-only): nothing was saved; reading still works');
    } else {
      logger.error({ err: error, method: req.method, url: req.originalUrl }, 'unhandled error in request');
      httpError = new HttpError('internal', 'internal error');
    }
    const body: ErrorBody = { error: { code: httpError.code, message: httpError.message, ...(httpError.field ? { field: httpError.field } : {}) } };
    res.status(httpError.status).json(body);
  };
}
