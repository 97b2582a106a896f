import { z } from 'zod';

export const ROLES = ['admin', 'curator', 'reviewer'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/**
 * Roles are ordered by what they may do: an admin may do everything a curator may, a curator
 * everything a reviewer may. Routes name the least role they need.
 */
const RANK: Record<Role, number> = { reviewer: 0, curator: 1, admin: 2 };

export function roleAtLeast(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}
