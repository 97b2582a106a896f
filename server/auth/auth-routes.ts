import type { Router } from 'express';
import { authApi } from '../../shared/api/auth';
import type { AppContext } from '../app-context';
import { HttpError } from '../http/http-error';
import { apiRouter, handle } from '../http/handle';
import { findUserForLogin } from '../users/user-queries';
import { sessionToken } from './auth-middleware';
import { loginLimiters } from './login-limits';
import { verifyPassword } from './passwords';
import { openLoginSession, recordFailedLogin } from './login-audit';
import { endSession, SESSION_COOKIE } from './sessions';

export function authRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);

  handle(
    api,
    authApi.login,
    'public',
    async ({ body: { username, password }, res }) => {
      const user = findUserForLogin(ctx.db, username);
      const ok = await verifyPassword(password, user?.password_hash ?? null);
      if (!user || !ok) {
        recordFailedLogin(ctx.db, username, user?.id ?? null);
        throw new HttpError('unauthenticated', 'wrong username or password');
      }
      const { token, expiresAt } = openLoginSession(ctx.db, user.id);
      res.cookie(SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: 'strict',
        secure: ctx.config.cookieSecure,
        expires: expiresAt,
        path: '/',
      });
      ctx.logger.info({ user: user.username }, 'login');
      return { user: { id: user.id, username: user.username, role: user.role, created_at: user.created_at } };
    },
    { before: loginLimiters(ctx.config) },
  );

  handle(api, authApi.logout, 'public', ({ req, res }) => {
    const token = sessionToken(req.headers.cookie);
    // The session's sockets close with it; the user's other sessions (other browsers) stay.
    if (token) ctx.disconnectSockets({ sessionId: endSession(ctx.db, token) });
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true };
  });

  handle(api, authApi.me, 'reviewer', ({ user }) => ({ user }));
  return api.router;
}
