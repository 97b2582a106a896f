import type { ErrorCode } from '../../shared/errors';

/** The one code → HTTP status map: domain errors carry a code, never a status. */
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

/** The HTTP status an error of `code` is answered with. */
export const statusOf = (code: ErrorCode): number => STATUS[code];
