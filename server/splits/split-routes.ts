import type { Router } from 'express';
import { splitsApi } from '../../shared/api/splits';
import type { AppContext } from '../app-context';
import type { ChartTypeJobs } from '../chart-types/chart-type-jobs';
import { apiRouter, handle } from '../http/handle';
import { importUploadedZip } from '../import/browser-import';
import { UploadSlot } from '../import/upload-slot';
import { listSplits } from './split-queries';
import { deleteSplit, updateSplit } from './split-service';

export function splitRoutes(ctx: AppContext, chartTypeJobs: ChartTypeJobs): Router {
  const api = apiRouter(ctx.db);
  const uploads = new UploadSlot();

  handle(api, splitsApi.list, 'curator', () => listSplits(ctx.db));
  handle(api, splitsApi.update, 'curator', ({ params: { name }, body, user }) => {
    const split = updateSplit(ctx.db, name, body, user.id);
    ctx.publish('split.updated', { split });
    return split;
  });
  handle(api, splitsApi.remove, 'curator', ({ params: { name }, user }) => {
    const deleted = deleteSplit(ctx.db, name, user.id);
    ctx.publish('split.deleted', { name });
    return deleted;
  });
  handle(api, splitsApi.upload, 'curator', async ({ query, req, user }) => {
    const length = Number(req.headers['content-length']);
    const uploadId = query.upload_id;
    let release: (() => void) | null = null;
    try {
      // Before a byte of the body is read: a refused upload writes nothing.
      release = uploads.take({ filename: query.filename, username: user.username, since: new Date() });
      const result = await importUploadedZip(ctx.db, req, {
        ...(query.format ? { format: query.format } : {}),
        ...(query.split ? { split: query.split } : {}),
        ...(query.filename ? { filename: query.filename } : {}),
        ...(Number.isSafeInteger(length) && length > 0 ? { length } : {}),
        actorId: user.id,
        // A database in memory has no file a thread could open: the import then runs here.
        ...(ctx.config.dbPath !== ':memory:' ? { dbPath: ctx.config.dbPath } : {}),
        // Only the uploader's own tabs follow its bar.
        ...(uploadId ? { onProgress: (progress) => ctx.publishTo(user.id, 'import.progress', { upload_id: uploadId, ...progress }) } : {}),
      });
      ctx.publish('charts.imported', { report: result.report });
      // PNG charts whose type only their table suggests: the vision model, when there is one, is asked now.
      chartTypeJobs.launchAfterImport(result.report.split, user.id);
      return result;
    } finally {
      release?.();
    }
  });
  return api.router;
}
