import type { Router } from 'express';
import { usersApi } from '../../shared/api/users';
import type { AppContext } from '../app-context';
import { apiRouter, handle } from '../http/handle';
import { changeRole, createUser, disableUser, enableUser, listAdminUsers, resetPassword, revokeSessions } from './user-service';

/** Every route here is the admin's. */
export function userRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);

  handle(api, usersApi.list, 'admin', () => ({ users: listAdminUsers(ctx.db) }));
  handle(api, usersApi.create, 'admin', async ({ body, user: admin }) => {
    const { user, generatedPassword } = await createUser(ctx.db, body.username, body.role, body.password, admin.id, ctx.events);
    return generatedPassword ? { user, generated_password: generatedPassword } : { user };
  });
  handle(api, usersApi.update, 'admin', ({ params: { id }, body, user }) => ({ user: changeRole(ctx, id, body.role, user.id) }));
  handle(api, usersApi.disable, 'admin', ({ params: { id }, user: admin }) => {
    const { user, revokedSessions } = disableUser(ctx, id, admin.id);
    return { user, revoked_sessions: revokedSessions };
  });
  handle(api, usersApi.enable, 'admin', ({ params: { id }, user }) => ({ user: enableUser(ctx, id, user.id) }));
  handle(api, usersApi.resetPassword, 'admin', async ({ params: { id }, user: admin }) => {
    const { user, generatedPassword, revokedSessions } = await resetPassword(ctx, id, admin.id);
    return { user, generated_password: generatedPassword, revoked_sessions: revokedSessions };
  });
  handle(api, usersApi.revokeSessions, 'admin', ({ params: { id }, user: admin }) => {
    const { user, revokedSessions } = revokeSessions(ctx, id, admin.id);
    return { user, revoked_sessions: revokedSessions };
  });
  return api.router;
}
