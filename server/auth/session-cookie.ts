import type { RequestHandler, Response } from 'express';
import { parse as parseCookies } from 'cookie';
import { authApi } from '../../shared/api/auth';
import { DomainError } from '../domain-error';

/** The session cookie's name over plain HTTP. */
export const SESSION_COOKIE = 'hqa_session';

/**
 * Under HTTPS the cookie is `__Host-hqa_session`: a browser keeps a cookie of that name only
 * when it is Secure, has Path=/ and no Domain, so no other path or sibling host can plant a copy
 * beside the real one (ports still do not separate cookies: see docs/security.md).
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/** How the server names and flags its session cookie. */
export interface SessionCookieSpec {
  readonly name: string;
  readonly secure: boolean;
}

export function sessionCookieSpec(config: { readonly cookieSecure: boolean }): SessionCookieSpec {
  return { name: sessionCookieName(config.cookieSecure), secure: config.cookieSecure };
}

/**
 * The values of every cookie called `name` in a Cookie header, in the order sent. A browser
 * sends one per (path, domain) it stores, so two mean a copy planted beside ours; `cookie`'s
 * parse keeps only the first, so they are read here from the raw header.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq !== -1 && pair.slice(0, eq).trim() === name) values.push(pair.slice(eq + 1).trim());
  }
  return values;
}

/** The session token of a Cookie header: its one cookie called `name`, or undefined (none, or several: none is believed). */
export function sessionToken(header: string | undefined, name: string): string | undefined {
  if (cookieValues(header, name).length !== 1) return undefined;
  return parseCookies(header ?? '')[name] || undefined;
}

/**
 * The paths a copy of the cookie sent with a request to `path` may have been stored under: `/`
 * and every prefix of the path, each with and without a trailing slash (`/api/items` and
 * `/api/items/` both match `/api/items/12`). A browser deletes a cookie only by its exact path.
 */
export function cookiePathsFor(path: string): string[] {
  const segments = path.split('/').filter((segment) => segment !== '');
  const paths = ['/'];
  let prefix = '';
  segments.forEach((segment, i) => {
    prefix += `/${segment}`;
    paths.push(prefix);
    if (i < segments.length - 1) paths.push(`${prefix}/`);
  });
  return paths;
}

/**
 * Adds to `res` a Set-Cookie expiring the session cookie on every path a copy sent to
 * `requestPath` may have (the root too, unless `keepRoot`: a login sets the new one there).
 * A `__Host-` cookie can only live on `/`, so that name needs nothing more.
 */
export function expireSessionCookies(res: Response, spec: SessionCookieSpec, requestPath: string, options: { keepRoot?: boolean } = {}): void {
  const paths = spec.name.startsWith('__Host-') ? ['/'] : cookiePathsFor(requestPath);
  for (const path of paths) {
    if (path === '/' && options.keepRoot === true) continue;
    res.clearCookie(spec.name, { path, httpOnly: true, sameSite: 'strict', secure: spec.secure });
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    /** What the session-cookie guard read: the one session token sent, if any, and how the cookie is named. */
    sessionCookie?: { readonly spec: SessionCookieSpec; readonly token: string | undefined };
  }
}

/** Login and logout read no session from the cookie (logout ends every one sent), so several do not stop them. */
const TAKES_SEVERAL = new Set([`${authApi.login.method} ${authApi.login.path}`, `${authApi.logout.method} ${authApi.logout.path}`]);

/**
 * Reads the session cookie once per API request, for the role checks. A request carrying it
 * more than once (a page on another port of this host set a copy on `/api` or `/api/items`:
 * ports do not separate cookies) is refused, whichever copy is ours: believing the first let a
 * planted junk cookie shut a user out for good, and a planted live token made a user's writes
 * another's. The answer expires every copy it can name, so signing in again works.
 */
export function sessionCookieGuard(spec: SessionCookieSpec): RequestHandler {
  return (req, res, next) => {
    // Only the API reads the session; pages and assets are the same for everyone.
    const path = req.baseUrl + req.path;
    if (!path.startsWith('/api/')) return next();
    const header = req.headers.cookie;
    const count = cookieValues(header, spec.name).length;
    if (count > 1 && !TAKES_SEVERAL.has(`${req.method} ${path}`)) {
      expireSessionCookies(res, spec, path);
      return next(
        new DomainError('session_cookie_conflict', `${count} session cookies were sent (a page elsewhere on this host set extra copies); none was used and all have been cleared: sign in again`, 'headers.cookie'),
      );
    }
    req.sessionCookie = { spec, token: sessionToken(header, spec.name) };
    next();
  };
}
