import type { Db } from '../../db/database';
import { roleAtLeast, type Role } from '../../shared/domain/roles';
import { getSettings } from '../settings/settings-queries';
import type { BlindViewer } from './blind-view-queries';

/**
 * Who reads items blind (blind-view-queries.ts): a reviewer, with the reviews per item now.
 * Null for curators and admins, who read everything as it is.
 */
export function blindViewer(db: Db, user: { id: number; role: Role }): BlindViewer | null {
  return roleAtLeast(user.role, 'curator') ? null : { id: user.id, k: getSettings(db).reviews_per_item };
}
