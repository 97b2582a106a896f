import { Router } from 'express';
import { LoginRequestSchema } from '../../shared/api/auth';
import type { AppContext } from '../app-context';
import { HttpError } from '../http/http-error';
import { parseInput } from '../http/validate';
import { findUserForLogin } from '../users/user-queries';
import { currentUser, requireRole, sessionToken } from './auth-middleware';
import { loginLimiters } from './login-limits';
import { verifyPassword } from './passwords';
import { createSession, endSession, SESSION_COOKIE } from './sessions';

/** A hash to compare against when the user does not exist, so timing does not reveal names. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export function authRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post('/login', ...loginLimiters(ctx.config), async (req, res) => {
    const { username, password } = parseInput(LoginRequestSchema, req.body, 'body');
    const user = findUserForLogin(ctx.db, username);
    const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok) throw new HttpError('unauthenticated', 'wrong username or password');
    const { token, expiresAt } = createSession(ctx.db, user.id);
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: ctx.config.cookieSecure,
      expires: expiresAt,
      path: '/',
    });
    ctx.logger.info({ user: user.username }, 'login');
    res.json({ user: { id: user.id, username: user.username, role: user.role, created_at: user.created_at } });
  });

  router.post('/logout', (req, res) => {
    const token = sessionToken(req.headers.cookie);
    // The session's sockets close with it; the user's other sessions (other browsers) stay.
    if (token) ctx.disconnectSockets({ sessionId: endSession(ctx.db, token) });
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.json({ ok: true });
  });

  router.get('/me', requireRole(ctx.db, 'reviewer'), (req, res) => {
    res.json({ user: currentUser(req) });
  });
  return router;
}
