import type { RequestHandler } from 'express';
import { DomainError } from '../domain-error';
import { crossOriginRefusal, type OriginPolicy } from './request-origin';

/** The methods that change something: every one of them must pass the guard. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The one body the API reads. JSON is UTF-8 between systems (RFC 8259 §8.1). */
const JSON_MEDIA_TYPE = 'application/json';
const JSON_CHARSET = 'utf-8';

/**
 * The one write that is not JSON: a split uploaded as a zip (path under /api). A form cannot
 * send application/zip either, and a cross-origin fetch with it needs a preflight this server
 * never grants, so the rule above holds for it too.
 */
const UPLOADS: ReadonlyMap<string, string> = new Map([['POST /imports', 'application/zip']]);

interface ContentType {
  mediaType: string;
  charset: string | undefined;
}

function parseContentType(header: string | undefined): ContentType | null {
  if (!header) return null;
  const [mediaType = '', ...parameters] = header.split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset') charset = value?.trim().replace(/^"|"$/g, '').toLowerCase();
  }
  return { mediaType: mediaType.trim().toLowerCase(), charset };
}

/**
 * Guards every API write against forgery by another page: a browser's request must come
 * from this server's own origin (403 `bad_origin`), and the body must be declared JSON in
 * UTF-8 (415 `unsupported_media_type`). An HTML form can send only urlencoded, multipart
 * or text/plain bodies, so the media type alone stops form posts even where Origin is
 * missing; a body-less write still says application/json, so the rule has no exception.
 */
export function writeGuard(policy: OriginPolicy): RequestHandler {
  return (req, _res, next) => {
    if (!WRITE_METHODS.has(req.method)) return next();
    const refusal = crossOriginRefusal(req, policy);
    if (refusal !== null) {
      const field = req.headers.origin === undefined ? 'headers.sec-fetch-site' : 'headers.origin';
      return next(new DomainError('bad_origin', refusal, field));
    }
    const contentType = parseContentType(req.headers['content-type']);
    const upload = UPLOADS.get(`${req.method} ${req.path}`);
    if (upload !== undefined && contentType?.mediaType === upload) return next();
    if (contentType?.mediaType !== JSON_MEDIA_TYPE) {
      const sent = contentType ? `not ${contentType.mediaType}` : 'and this request sends no Content-Type';
      return next(new DomainError('unsupported_media_type', `writes take a JSON body (Content-Type: ${JSON_MEDIA_TYPE}), ${sent}`, 'headers.content-type'));
    }
    if (contentType.charset !== undefined && contentType.charset !== JSON_CHARSET) {
      return next(new DomainError('unsupported_media_type', `charset ${contentType.charset} is not read here: send JSON in UTF-8`, 'headers.content-type'));
    }
    next();
  };
}
