import type { Db } from '../../db/database';
import type { AuditAction, AuditDetails, AuditTargetType } from '../../shared/api/audit';
import { insertAuditEntry } from './audit-queries';

/** One change as the audit log records it. */
export interface AuditRecord {
  /** Who did it; null for the system, the CLI, or a failed login by a name no user has. */
  readonly actor_id: number | null;
  readonly action: AuditAction;
  readonly target_type?: AuditTargetType;
  readonly target_id?: string | number;
  readonly details?: AuditDetails;
}

/**
 * Appends one entry. Call it inside the transaction that makes the change, so a change rolled
 * back leaves no entry and a committed one always has its entry: outside one, the entry is its
 * own write (used only for what changes nothing else, a failed login or a download).
 */
export function recordAudit(db: Db, record: AuditRecord): number {
  return insertAuditEntry(db, {
    actor_id: record.actor_id,
    action: record.action,
    target_type: record.target_type ?? null,
    target_id: record.target_id === undefined ? null : String(record.target_id),
    details: JSON.stringify(record.details ?? {}),
  });
}
