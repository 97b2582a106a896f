import type { Readable } from 'node:stream';
import type { AppContext } from '../app-context';
import { importUploadedZip, type BrowserImportOptions } from '../import/browser-import';

/**
 * A split uploaded from the browser, imported with what follows it: the uploader's own tabs
 * follow its bar (`import.progress`, a stream, not a domain event) and `split.imported` tells the
 * subscribers — open pages, and the chart-type jobs for charts whose type only a table suggests.
 */
export async function importUploadedSplit(
  ctx: Pick<AppContext, 'db' | 'config' | 'events' | 'publishTo'>,
  body: Readable,
  upload: Omit<BrowserImportOptions, 'dbPath' | 'onProgress' | 'actorId'> & { actorId: number; uploadId?: string },
): ReturnType<typeof importUploadedZip> {
  const { uploadId, actorId, ...options } = upload;
  const result = await importUploadedZip(ctx.db, body, {
    ...options,
    actorId,
    // A database in memory has no file a thread could open: the import then runs here.
    ...(ctx.config.dbPath !== ':memory:' ? { dbPath: ctx.config.dbPath } : {}),
    ...(uploadId ? { onProgress: (progress) => ctx.publishTo(actorId, 'import.progress', { upload_id: uploadId, ...progress }) } : {}),
  });
  // Stored by the import's own connection (a worker thread's): the event is a write of its own here.
  ctx.events.emit('split.imported', { report: result.report, actor_id: actorId });
  return result;
}
