import type { ErrorCode } from '../../shared/errors';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  lease_ended: 409,
  payload_too_large: 413,
  too_large_to_draw: 422,
  unsupported_media_type: 415,
  bad_origin: 403,
  // 401: the browser holds no usable session any more (the answer expired every copy), so it signs in again.
  session_cookie_conflict: 401,
  bad_host: 403,
  storage_unavailable: 503,
  rate_limited: 429,
  internal: 500,
};

/** An error meant for the client: its code, message and field reach the response body. */
export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = STATUS[code];
  }
}

export const notFound = (what: string) => new HttpError('not_found', `${what} not found`);
