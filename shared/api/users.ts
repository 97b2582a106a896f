import { z } from 'zod';
import { RoleSchema } from '../domain/roles';
import { PasswordSchema, UserSchema, UsernameSchema } from './auth';

// GET /api/users
export const UserListResponseSchema = z.object({ users: z.array(UserSchema) });

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

// PATCH /api/users/:id
export const UpdateUserRequestSchema = z.object({ role: RoleSchema });
export const UpdateUserResponseSchema = z.object({ user: UserSchema });
