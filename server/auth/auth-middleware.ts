import type { Request, RequestHandler } from 'express';
import type { Db } from '../../db/database';
import type { User } from '../../shared/api/auth';
import { roleAtLeast, type Role } from '../../shared/domain/roles';
import { DomainError } from '../domain-error';
import { expireSessionCookies } from './session-cookie';
import { userForToken } from './sessions';

declare module 'express-serve-static-core' {
  interface Request {
    user?: User;
  }
}

/**
 * Authenticates by the session cookie (as `sessionCookieGuard` read it) and requires at least
 * `role`: 401 without a session, 403 below the role. A cookie that opens no session is expired
 * on every path it may have been set on: a stray copy planted on `/api/items` would otherwise
 * keep answering 401 there after the user signs in again on `/`.
 */
export function requireRole(db: Db, role: Role): RequestHandler {
  return (req, res, next) => {
    const cookie = req.sessionCookie;
    const user = userForToken(db, cookie?.token);
    if (!user) {
      if (cookie?.token !== undefined) expireSessionCookies(res, cookie.spec, req.baseUrl + req.path);
      return next(new DomainError('unauthenticated', 'log in first'));
    }
    if (!roleAtLeast(user.role, role)) return next(new DomainError('forbidden', `this needs the ${role} role; you are ${user.role}`));
    req.user = user;
    next();
  };
}

/** The authenticated user of a request that passed requireRole. */
export function currentUser(req: Request): User {
  if (!req.user) throw new DomainError('unauthenticated', 'log in first');
  return req.user;
}
