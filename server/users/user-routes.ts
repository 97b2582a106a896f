import { Router } from 'express';
import { IdParamSchema } from '../../shared/api/common';
import { CreateUserRequestSchema, UpdateUserRequestSchema } from '../../shared/api/users';
import type { AppContext } from '../app-context';
import { requireRole } from '../auth/auth-middleware';
import { parseInput } from '../http/validate';
import { listUsers } from './user-queries';
import { changeRole, createUser } from './user-service';

export function userRoutes(ctx: AppContext): Router {
  const router = Router();
  router.use(requireRole(ctx.db, 'admin'));

  router.get('/', (_req, res) => {
    res.json({ users: listUsers(ctx.db) });
  });

  router.post('/', async (req, res) => {
    const body = parseInput(CreateUserRequestSchema, req.body, 'body');
    const { user, generatedPassword } = await createUser(ctx.db, body.username, body.role, body.password);
    res.status(201).json(generatedPassword ? { user, generated_password: generatedPassword } : { user });
  });

  router.patch('/:id', (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const { role } = parseInput(UpdateUserRequestSchema, req.body, 'body');
    res.json({ user: changeRole(ctx.db, id, role) });
  });
  return router;
}
