import { z } from 'zod';
import { RoleSchema } from '../domain/roles';
import { PasswordSchema, UserSchema, UsernameSchema } from './auth';
import { IdParamSchema } from './common';
import { endpoint } from './endpoint';

/** A user as the admin sees them: whether they may log in, and how many live sessions they hold. */
export const AdminUserSchema = UserSchema.extend({
  /** When the user was disabled; null while they may log in. */
  disabled_at: z.string().nullable(),
  active_sessions: z.number().int().nonnegative(),
  /** Items assigned to the user personally; disabling them unassigns these (back to the general queue). */
  assigned_items: z.number().int().nonnegative(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

// GET /api/users   (disabled users included)
export const UserListResponseSchema = z.object({ users: z.array(AdminUserSchema) });

// POST /api/users
export const CreateUserRequestSchema = z.object({
  username: UsernameSchema,
  role: RoleSchema,
  /** Omitted: the server generates one and returns it once. */
  password: PasswordSchema.optional(),
});
export type CreateUserRequest = z.infer<typeof CreateUserRequestSchema>;
export const CreateUserResponseSchema = z.object({
  user: UserSchema,
  generated_password: z.string().optional(),
});

// PATCH /api/users/:id   (the user's open sockets are closed: they reconnect with the new role)
export const UpdateUserRequestSchema = z.object({ role: RoleSchema });
export const UpdateUserResponseSchema = z.object({ user: AdminUserSchema });

/** How many live sessions an action ended (their sockets closed with them). */
const RevokedSessionsSchema = z.number().int().nonnegative();

// POST /api/users/:id/disable   (the user cannot log in; their sessions end; the items assigned to them personally are unassigned; refused for the last enabled admin)
export const DisableUserResponseSchema = z.object({ user: AdminUserSchema, revoked_sessions: RevokedSessionsSchema });

// POST /api/users/:id/enable
export const EnableUserResponseSchema = z.object({ user: AdminUserSchema });

// POST /api/users/:id/reset-password   (a generated password, returned this once; the user's sessions end)
export const ResetPasswordResponseSchema = z.object({
  user: AdminUserSchema,
  generated_password: z.string(),
  revoked_sessions: RevokedSessionsSchema,
});

// POST /api/users/:id/revoke-sessions   (every session of the user ends; they may log in again)
export const RevokeSessionsResponseSchema = z.object({ user: AdminUserSchema, revoked_sessions: RevokedSessionsSchema });

/** Every users endpoint is the admin's. */
export const usersApi = {
  list: endpoint('GET', '/api/users', { response: UserListResponseSchema }),
  create: endpoint('POST', '/api/users', { body: CreateUserRequestSchema, response: CreateUserResponseSchema, status: 201 }),
  update: endpoint('PATCH', '/api/users/:id', { params: IdParamSchema, body: UpdateUserRequestSchema, response: UpdateUserResponseSchema }),
  disable: endpoint('POST', '/api/users/:id/disable', { params: IdParamSchema, response: DisableUserResponseSchema }),
  enable: endpoint('POST', '/api/users/:id/enable', { params: IdParamSchema, response: EnableUserResponseSchema }),
  resetPassword: endpoint('POST', '/api/users/:id/reset-password', { params: IdParamSchema, response: ResetPasswordResponseSchema }),
  revokeSessions: endpoint('POST', '/api/users/:id/revoke-sessions', { params: IdParamSchema, response: RevokeSessionsResponseSchema }),
} as const;
