import type { Router } from 'express';
import { splitsApi } from '../../shared/api/splits';
import type { AppContext } from '../app-context';
import { apiRouter, handle } from '../http/handle';
import { UploadSlot } from '../import/upload-slot';
import { listSplits } from './split-queries';
import { importUploadedSplit } from './split-commands';
import { deleteSplit, updateSplit } from './split-service';

export function splitRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  const uploads = new UploadSlot();

  handle(api, splitsApi.list, 'curator', () => listSplits(ctx.db));
  handle(api, splitsApi.update, 'curator', ({ params: { name }, body, user }) => updateSplit(ctx.db, ctx.events, name, body, user.id));
  handle(api, splitsApi.remove, 'curator', ({ params: { name }, user }) => deleteSplit(ctx.db, ctx.events, name, user.id));
  handle(api, splitsApi.upload, 'curator', async ({ query, req, user }) => {
    const length = Number(req.headers['content-length']);
    let release: (() => void) | null = null;
    try {
      // Before a byte of the body is read: a refused upload writes nothing.
      release = uploads.take({ filename: query.filename, username: user.username, since: new Date() });
      return await importUploadedSplit(ctx, req, {
        ...(query.format ? { format: query.format } : {}),
        ...(query.split ? { split: query.split } : {}),
        ...(query.filename ? { filename: query.filename } : {}),
        ...(Number.isSafeInteger(length) && length > 0 ? { length } : {}),
        actorId: user.id,
        // Only the uploader's own tabs follow its bar.
        ...(query.upload_id ? { uploadId: query.upload_id } : {}),
      });
    } finally {
      release?.();
    }
  });
  return api.router;
}
