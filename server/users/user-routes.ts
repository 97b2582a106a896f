import { Router } from 'express';
import { IdParamSchema } from '../../shared/api/common';
import { CreateUserRequestSchema, UpdateUserRequestSchema } from '../../shared/api/users';
import type { AppContext } from '../app-context';
import { requireRole } from '../auth/auth-middleware';
import { parseInput } from '../http/validate';
import { changeRole, createUser, disableUser, enableUser, listAdminUsers, resetPassword, revokeSessions } from './user-service';

export function userRoutes(ctx: AppContext): Router {
  const router = Router();
  router.use(requireRole(ctx.db, 'admin'));
  const idOf = (params: unknown) => parseInput(IdParamSchema, params, 'params').id;

  router.get('/', (_req, res) => {
    res.json({ users: listAdminUsers(ctx.db) });
  });

  router.post('/', async (req, res) => {
    const body = parseInput(CreateUserRequestSchema, req.body, 'body');
    const { user, generatedPassword } = await createUser(ctx.db, body.username, body.role, body.password);
    res.status(201).json(generatedPassword ? { user, generated_password: generatedPassword } : { user });
  });

  router.patch('/:id', (req, res) => {
    const id = idOf(req.params);
    const { role } = parseInput(UpdateUserRequestSchema, req.body, 'body');
    res.json({ user: changeRole(ctx, id, role) });
  });

  router.post('/:id/disable', (req, res) => {
    const { user, revokedSessions } = disableUser(ctx, idOf(req.params));
    res.json({ user, revoked_sessions: revokedSessions });
  });

  router.post('/:id/enable', (req, res) => {
    res.json({ user: enableUser(ctx, idOf(req.params)) });
  });

  router.post('/:id/reset-password', async (req, res) => {
    const { user, generatedPassword, revokedSessions } = await resetPassword(ctx, idOf(req.params));
    res.json({ user, generated_password: generatedPassword, revoked_sessions: revokedSessions });
  });

  router.post('/:id/revoke-sessions', (req, res) => {
    const { user, revokedSessions } = revokeSessions(ctx, idOf(req.params));
    res.json({ user, revoked_sessions: revokedSessions });
  });
  return router;
}
