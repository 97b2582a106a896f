import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../config';

/** What the origin and HTTPS decisions read from the configuration. */
export type OriginPolicy = Pick<Config, 'trustProxy' | 'cookieSecure'>;

/** The parts of a request (an Express request or socket.io's handshake) these checks read. */
export interface RequestLike {
  headers: IncomingHttpHeaders;
  socket: object;
}

/** A header a proxy may have appended to (`a, b`): the first value is the client-facing one. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(header) ? header[0] : header;
  const first = raw?.split(',')[0]?.trim();
  return first ? first : undefined;
}

/**
 * Whether browsers reach the server over HTTPS: a TLS socket, `HQA_COOKIE_SECURE` (the
 * cookie is only ever sent over HTTPS, so the site is served that way), or a trusted
 * proxy's `X-Forwarded-Proto: https`. An untrusted peer's X-Forwarded-Proto is ignored:
 * anyone could send it.
 */
export function servedOverHttps(req: RequestLike, policy: OriginPolicy): boolean {
  if ('encrypted' in req.socket && req.socket.encrypted === true) return true;
  if (policy.cookieSecure) return true;
  return policy.trustProxy && firstValue(req.headers['x-forwarded-proto'])?.toLowerCase() === 'https';
}

/** `scheme://host[:port]` normalised the way browsers serialise an Origin (default ports dropped). */
function normalisedOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** The host (and port) a request names: a trusted proxy's `X-Forwarded-Host`, else `Host`. */
export function requestHost(req: RequestLike, policy: Pick<Config, 'trustProxy'>): string | undefined {
  return (policy.trustProxy ? firstValue(req.headers['x-forwarded-host']) : undefined) ?? req.headers.host;
}

/**
 * The origin browsers address this server by: the scheme from {@link servedOverHttps} and
 * the host the request names — `Host`, or a trusted proxy's `X-Forwarded-Host`. Taking it
 * from the request (not HQA_HOST/HQA_PORT) lets one server answer on 127.0.0.1, its LAN
 * address and a host name at once; a forged page cannot choose the Host its victim's
 * browser sends, so this is no weaker than a fixed name.
 */
export function serverOrigin(req: RequestLike, policy: OriginPolicy): string | null {
  const host = requestHost(req, policy);
  if (!host) return null;
  return normalisedOrigin(`${servedOverHttps(req, policy) ? 'https' : 'http'}://${host}`);
}

/**
 * Why a request that a browser may have sent on another page's behalf is refused, or null
 * when it is not: an `Origin` must be this server's own, and a `Sec-Fetch-Site` must say
 * `same-origin`. A request with neither is not a browser's (browsers send Origin on every
 * POST, PUT, PATCH, DELETE and WebSocket handshake): the CLI, curl and scripts keep working.
 */
export function crossOriginRefusal(req: RequestLike, policy: OriginPolicy): string | null {
  const fetchSite = firstValue(req.headers['sec-fetch-site'])?.toLowerCase();
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return `a ${fetchSite} request may not write here (Sec-Fetch-Site: ${fetchSite})`;
  const origin = firstValue(req.headers.origin);
  if (origin === undefined) return null;
  const own = serverOrigin(req, policy);
  const claimed = normalisedOrigin(origin);
  if (own !== null && claimed === own) return null;
  if (own === null) return `Origin ${origin} cannot be checked: the request names no Host`;
  // The one honest mismatch: a proxy terminates HTTPS and the server was not told so.
  const onlySchemeDiffers = claimed !== null && claimed.replace(/^https:/, 'http:') === own;
  const hint = onlySchemeDiffers ? '; behind an HTTPS proxy set HQA_TRUST_PROXY (or HQA_COOKIE_SECURE)' : '';
  return `Origin ${origin} is not this server's (${own})${hint}`;
}
