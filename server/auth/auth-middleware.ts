import type { Request, RequestHandler } from 'express';
import { parse as parseCookies } from 'cookie';
import type { Db } from '../../db/database';
import type { User } from '../../shared/api/auth';
import { roleAtLeast, type Role } from '../../shared/domain/roles';
import { HttpError } from '../http/http-error';
import { SESSION_COOKIE, userForToken } from './sessions';

declare module 'express-serve-static-core' {
  interface Request {
    user?: User;
  }
}

export function sessionToken(cookieHeader: string | undefined): string | undefined {
  return cookieHeader ? parseCookies(cookieHeader)[SESSION_COOKIE] : undefined;
}

/** Authenticates by the session cookie and requires at least `role`: 401 without a session, 403 below the role. */
export function requireRole(db: Db, role: Role): RequestHandler {
  return (req, _res, next) => {
    const user = userForToken(db, sessionToken(req.headers.cookie));
    if (!user) return next(new HttpError('unauthenticated', 'log in first'));
    if (!roleAtLeast(user.role, role)) return next(new HttpError('forbidden', `this needs the ${role} role; you are ${user.role}`));
    req.user = user;
    next();
  };
}

/** The authenticated user of a request that passed requireRole. */
export function currentUser(req: Request): User {
  if (!req.user) throw new HttpError('unauthenticated', 'log in first');
  return req.user;
}
