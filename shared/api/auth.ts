import { z } from 'zod';
import { RoleSchema } from '../domain/roles';
import { endpoint } from './endpoint';

export const UsernameSchema = z
  .string()
  .trim()
  .min(2, 'must be at least 2 characters')
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'may hold only letters, digits, and _ . -');

export const PasswordSchema = z.string().min(8, 'must be at least 8 characters').max(256);

export const UserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  role: RoleSchema,
  created_at: z.string(),
});
export type User = z.infer<typeof UserSchema>;

// POST /api/auth/login
export const LoginRequestSchema = z.object({
  username: z.string().trim().min(1, 'is required').max(64),
  password: z.string().min(1, 'is required').max(256),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;
export const LoginResponseSchema = z.object({ user: UserSchema });

// POST /api/auth/logout
export const LogoutResponseSchema = z.object({ ok: z.literal(true) });

// GET /api/auth/me
export const MeResponseSchema = z.object({ user: UserSchema });

export const authApi = {
  /** Public; rate-limited per address and per user name. Sets the session cookie. */
  login: endpoint('POST', '/api/auth/login', { body: LoginRequestSchema, response: LoginResponseSchema }),
  /** Public: ends the cookie's session, if any. */
  logout: endpoint('POST', '/api/auth/logout', { response: LogoutResponseSchema }),
  me: endpoint('GET', '/api/auth/me', { response: MeResponseSchema }),
} as const;
