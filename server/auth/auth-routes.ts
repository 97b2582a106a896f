import type { Router } from 'express';
import { authApi } from '../../shared/api/auth';
import type { AppContext } from '../app-context';
import { DomainError } from '../domain-error';
import { apiRouter, handle } from '../http/handle';
import { findUserForLogin } from '../users/user-queries';
import { loginLimiters } from './login-limits';
import { verifyPassword } from './passwords';
import { endLoginSessions, openLoginSession, recordFailedLogin } from './login-audit';
import { cookieValues, expireSessionCookies, sessionCookieSpec } from './session-cookie';

export function authRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  const cookie = sessionCookieSpec(ctx.config);

  handle(
    api,
    authApi.login,
    'public',
    async ({ body: { username, password }, req, res }) => {
      const user = findUserForLogin(ctx.db, username);
      const ok = await verifyPassword(password, user?.password_hash ?? null);
      if (!user || !ok) {
        recordFailedLogin(ctx.events, username, user?.id ?? null);
        throw new DomainError('unauthenticated', 'wrong username or password');
      }
      const { token, expiresAt } = openLoginSession(ctx.db, ctx.events, user.id);
      // Copies planted on /api or /api/auth would ride along with the new cookie: gone first.
      expireSessionCookies(res, cookie, req.baseUrl + req.path, { keepRoot: true });
      res.cookie(cookie.name, token, {
        httpOnly: true,
        sameSite: 'strict',
        secure: cookie.secure,
        expires: expiresAt,
        path: '/',
      });
      ctx.logger.info({ user: user.username }, 'login');
      return { user: { id: user.id, username: user.username, role: user.role, created_at: user.created_at } };
    },
    { before: loginLimiters(ctx.config) },
  );

  handle(api, authApi.logout, 'public', ({ req, res }) => {
    // Every token sent is the browser's to end, a planted one too; which one is the user's cannot be told.
    // The sessions' sockets close with them; the user's other sessions (other browsers) stay.
    endLoginSessions(
      ctx.db,
      ctx.events,
      cookieValues(req.headers.cookie, cookie.name).filter((token) => token !== ''),
    );
    expireSessionCookies(res, cookie, req.baseUrl + req.path);
    return { ok: true };
  });

  handle(api, authApi.me, 'reviewer', ({ user }) => ({ user }));
  return api.router;
}
