import { DomainError } from '../domain-error';

/** What body-parser (and the zlib stream it reads through) attaches to its failures. */
export interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
  charset?: string;
  encoding?: string;
}

/** Content-Encodings express.json inflates; any other is refused before the body is read. */
const READ_ENCODINGS = 'identity, gzip, deflate or br';

/**
 * The client's error for a body the server could not read, or null when `error` is not a
 * body-reading failure. Each names the header or the body at fault; none is a 500, since
 * the fault is the request's.
 */
export function bodyReadError(error: unknown, contentEncoding: string | undefined): DomainError | null {
  if (typeof error !== 'object' || error === null) return null;
  const parserError = error as BodyParserError;
  switch (parserError.type) {
    case 'entity.too.large':
      return new DomainError('payload_too_large', 'request body is too large');
    case 'entity.parse.failed':
      return new DomainError('bad_request', 'request body is not valid JSON', 'body');
    case 'charset.unsupported':
      return new DomainError('unsupported_media_type', `charset ${parserError.charset ?? ''} is not read here: send JSON in UTF-8`, 'headers.content-type');
    case 'encoding.unsupported':
      return new DomainError('unsupported_media_type', `Content-Encoding ${parserError.encoding ?? ''} is not read here (${READ_ENCODINGS})`, 'headers.content-encoding');
  }
  // A compressed body that does not decompress: body-parser passes the zlib or brotli error
  // on untyped, as a 400 meant for the client.
  const compressed = contentEncoding !== undefined && contentEncoding.toLowerCase() !== 'identity';
  if (compressed && parserError.type === undefined && parserError.expose === true && parserError.status === 400) {
    return new DomainError('bad_request', `request body is not valid ${contentEncoding}: ${(error as Error).message}`, 'headers.content-encoding');
  }
  return null;
}
