import type { Logger, LoggerOptions } from 'pino';

/**
 * Where a session token or credential would land in a log line: pino-http's request
 * headers (the session cookie, a bearer token) and the login response's Set-Cookie.
 * Whoever reads the log must not be able to take over a session.
 */
export const LOG_REDACT_PATHS = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];

export const LOG_REDACTION: NonNullable<LoggerOptions['redact']> = { paths: LOG_REDACT_PATHS, censor: '[redacted]' };

/** A child of `logger` that censors {@link LOG_REDACT_PATHS}, whatever logger the caller passed in. */
export function redactingLogger(logger: Logger): Logger {
  return logger.child({}, { redact: LOG_REDACTION });
}
