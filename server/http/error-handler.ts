import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { isStorageFailure } from '../../db/storage-errors';
import type { ErrorBody } from '../../shared/errors';
import { DomainError } from '../domain-error';
import { bodyReadError } from './body-errors';
import { statusOf } from './error-status';

export function apiNotFound(): RequestHandler {
  return (req, _res, next) => next(new DomainError('not_found', `no API route ${req.method} ${req.path}`));
}

/**
 * Turns any error into the one error body: a DomainError (or a subclass) answers with its
 * code's status, its message and field; internals are logged, never sent.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    let refusal: DomainError;
    const bodyError = bodyReadError(error, req.headers['content-encoding']);
    if (error instanceof DomainError) refusal = error;
    else if (bodyError) refusal = bodyError;
    else if (isStorageFailure(error)) {
      // Full disk, read-only file or failing I/O: the operator must hear of it; the client may
      // retry later. Writes are transactions, so the failed one left nothing behind.
      logger.error({ err: error, method: req.method, url: req.originalUrl }, 'the database cannot take writes');
      refusal = new DomainError('storage_unavailable', 'the database cannot take writes right now (disk full or read-only): nothing was saved; reading still works');
    } else {
      logger.error({ err: error, method: req.method, url: req.originalUrl }, 'unhandled error in request');
      refusal = new DomainError('internal', 'internal error');
    }
    const body: ErrorBody = { error: { code: refusal.code, message: refusal.message, ...(refusal.field ? { field: refusal.field } : {}) } };
    res.status(statusOf(refusal.code)).json(body);
  };
}
