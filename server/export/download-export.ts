import type { Writable } from 'node:stream';
import type { Db } from '../../db/database';
import { recordAudit } from '../audit/audit-log';
import { writeExport, type ExportOptions } from './export-writer';

/**
 * A download from the Export page: the export, then its audit entry with what it held. A
 * download changes nothing, so the entry is its own write, made only once the file was
 * written whole (a download cut short is not logged as one that happened).
 */
export async function downloadExport(db: Db, out: Writable, options: ExportOptions, actorId: number): Promise<void> {
  const { items } = await writeExport(db, out, options);
  recordAudit(db, { actor_id: actorId, action: 'export.downloaded', target_type: 'export', target_id: options.format, details: { format: options.format, name: options.name, full: options.full, items } });
}
