import type { ErrorCode } from '../shared/errors';

/**
 * A refusal meant for whoever asked: its code (shared/errors.ts), message and field reach the
 * client's error body as they are. Domain code throws it, or a subclass of its own that carries
 * its code; `server/http/` alone knows which HTTP status a code answers with, and the CLI
 * prints the message.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The request part at fault (`body.name`, `query.cursor`), for a form to mark. */
    readonly field?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** `what` does not exist (or the caller may not know it does): `chart 7 not found`. */
export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
