import { Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import { LoginRequestSchema } from '../../shared/api/auth';
import type { ErrorBody } from '../../shared/errors';
import type { AppContext } from '../app-context';
import { HttpError } from '../http/http-error';
import { parseInput } from '../http/validate';
import { findUserForLogin } from '../users/user-queries';
import { currentUser, requireRole, sessionToken } from './auth-middleware';
import { verifyPassword } from './passwords';
import { createSession, endSession, SESSION_COOKIE } from './sessions';

/** A hash to compare against when the user does not exist, so timing does not reveal names. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export function authRoutes(ctx: AppContext): Router {
  const router = Router();
  const loginLimiter = rateLimit({
    windowMs: ctx.config.loginRateWindowMs,
    limit: ctx.config.loginRateLimit,
    // Only failed attempts count: a team behind one address can still log in all day.
    skipSuccessfulRequests: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      const body: ErrorBody = { error: { code: 'rate_limited', message: 'too many failed logins; wait a few minutes and try again' } };
      res.status(429).json(body);
    },
  });

  router.post('/login', loginLimiter, async (req, res) => {
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
    if (token) endSession(ctx.db, token);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.json({ ok: true });
  });

  router.get('/me', requireRole(ctx.db, 'reviewer'), (req, res) => {
    res.json({ user: currentUser(req) });
  });
  return router;
}
