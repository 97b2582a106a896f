import type { Writable } from 'node:stream';
import type { Db } from '../../db/database';
import type { DomainEventEmitter } from '../events/event-bus';
import { writeExport, type ExportOptions } from './export-writer';

/**
 * A download from the Export page: the export, then its `export.downloaded` with what it held. A
 * download changes nothing, so the event (and its audit entry) is its own write, emitted only once
 * the file was written whole (a download cut short is not logged as one that happened).
 */
export async function downloadExport(db: Db, events: DomainEventEmitter, out: Writable, options: ExportOptions, actorId: number): Promise<void> {
  const { items } = await writeExport(db, out, options);
  events.emit('export.downloaded', { actor_id: actorId, format: options.format, name: options.name, full: options.full, items });
}
