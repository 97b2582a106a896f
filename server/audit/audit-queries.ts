import type { Db } from '../../db/database';
import { whereClause } from '../../db/sql-filters';
import { statement } from '../../db/statements';
import {
  AuditActionSchema,
  AuditDetailsSchema,
  AuditTargetTypeSchema,
  type AuditEntry,
  type AuditFilter,
  type AuditTargetType,
} from '../../shared/api/audit';

/** All SQL of the audit log (migration 016): append, and read newest first by id. */

export interface AuditInsert {
  readonly actor_id: number | null;
  readonly action: string;
  readonly target_type: AuditTargetType | null;
  readonly target_id: string | null;
  readonly details: string;
}

export function insertAuditEntry(db: Db, entry: AuditInsert): number {
  const insert = statement(db, `INSERT INTO audit_log (actor_id, action, target_type, target_id, details)
    VALUES (@actor_id, @action, @target_type, @target_id, @details)`);
  return Number(insert.run(entry).lastInsertRowid);
}

interface AuditRow {
  id: number;
  at: string;
  actor_id: number | null;
  actor_username: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: string;
}

const SELECT = `SELECT a.id, a.at, a.actor_id, u.username AS actor_username, a.action, a.target_type, a.target_id, a.details
  FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id`;

function filterWhere(filter: AuditFilter, beforeId: number | undefined): ReturnType<typeof whereClause> {
  return whereClause([
    { sql: 'a.actor_id = @actor_id', param: 'actor_id', value: filter.actor_id },
    { sql: 'a.action = @action', param: 'action', value: filter.action },
    { sql: 'a.target_type = @target_type', param: 'target_type', value: filter.target_type },
    { sql: 'a.target_id = @target_id', param: 'target_id', value: filter.target_id },
    { sql: 'a.at >= @from', param: 'from', value: filter.from },
    { sql: 'a.at < @to', param: 'to', value: filter.to },
    { sql: 'a.id < @before_id', param: 'before_id', value: beforeId },
  ]);
}

/** Rows are mapped through the shared schemas: a row written by a newer version fails loudly, naming its id. */
function toEntry(row: AuditRow): AuditEntry {
  let details: unknown;
  try {
    details = JSON.parse(row.details) as unknown;
  } catch {
    throw new Error(`audit_log row ${row.id}: details is not JSON`);
  }
  return {
    id: row.id,
    at: row.at,
    actor_id: row.actor_id,
    actor_username: row.actor_username,
    action: AuditActionSchema.parse(row.action),
    target_type: row.target_type === null ? null : AuditTargetTypeSchema.parse(row.target_type),
    target_id: row.target_id,
    details: AuditDetailsSchema.parse(details),
  };
}

/** One page, newest first: entries with id below `beforeId` (all when absent). */
export function listAuditEntries(db: Db, filter: AuditFilter, limit: number, beforeId?: number): AuditEntry[] {
  const where = filterWhere(filter, beforeId);
  const rows = statement(db, `${SELECT} ${where.sql} ORDER BY a.id DESC LIMIT @limit`).all({ ...where.params, limit }) as AuditRow[];
  return rows.map(toEntry);
}

/** Rows per page of the export: keyset paging keeps memory flat and the connection free between pages. */
const EXPORT_PAGE = 1000;

/** Every entry the filter matches, newest first, a page at a time. */
export function* iterateAuditEntries(db: Db, filter: AuditFilter): Generator<AuditEntry> {
  let beforeId: number | undefined;
  for (;;) {
    const page = listAuditEntries(db, filter, EXPORT_PAGE, beforeId);
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < EXPORT_PAGE) return;
    beforeId = last.id;
  }
}
