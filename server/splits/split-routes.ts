import type { Router } from 'express';
import { splitsApi } from '../../shared/api/splits';
import type { AppContext } from '../app-context';
import type { ChartTypeJobs } from '../chart-types/chart-type-jobs';
import { HttpError, notFound } from '../http/http-error';
import { apiRouter, handle } from '../http/handle';
import { importUploadedZip, UploadTooLargeError } from '../import/browser-import';
import { ImportSetupError } from '../import/import-split';
import { UploadBusyError, UploadSlot } from '../import/upload-slot';
import { ZipRefusedError } from '../import/zip-archive';
import { listSplits } from './split-queries';
import { deleteSplit, SplitInUseError, SplitNotFoundError, updateSplit } from './split-service';

/** An upload refused as a whole, as the client's error naming why (the entry, the limit, the folder layout). */
function asHttpError(error: unknown): unknown {
  if (error instanceof UploadTooLargeError) return new HttpError('payload_too_large', error.message);
  if (error instanceof ZipRefusedError) return new HttpError('bad_request', `zip refused: ${error.message}`);
  if (error instanceof UploadBusyError) return new HttpError('conflict', error.message);
  if (error instanceof ImportSetupError) return new HttpError('bad_request', error.message);
  return error;
}

export function splitRoutes(ctx: AppContext, chartTypeJobs: ChartTypeJobs): Router {
  const api = apiRouter(ctx.db);
  const uploads = new UploadSlot();

  handle(api, splitsApi.list, 'curator', () => listSplits(ctx.db));
  handle(api, splitsApi.update, 'curator', ({ params: { name }, body, user }) => {
    try {
      const split = updateSplit(ctx.db, name, body, user.id);
      ctx.publish('split.updated', { split });
      return split;
    } catch (error) {
      if (error instanceof SplitNotFoundError) throw notFound(`split "${name}"`);
      throw error;
    }
  });
  handle(api, splitsApi.remove, 'curator', ({ params: { name }, user }) => {
    try {
      const deleted = deleteSplit(ctx.db, name, user.id);
      ctx.publish('split.deleted', { name });
      return deleted;
    } catch (error) {
      if (error instanceof SplitNotFoundError) throw notFound(`split "${name}"`);
      if (error instanceof SplitInUseError) throw new HttpError('conflict', error.message);
      throw error;
    }
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
    } catch (error) {
      throw asHttpError(error);
    } finally {
      release?.();
    }
  });
  return api.router;
}
