import type { Router } from 'express';
import { exportApi } from '../../shared/api/export';
import type { AppContext } from '../app-context';
import { DomainError } from '../domain-error';
import { apiRouter, handle } from '../http/handle';
import { downloadExport } from './download-export';
import { emptyExportRefusal } from './export-readiness';
import { downloadHfDataset } from './hf-dataset-zip';

/** An export with no accepted items is refused with the reason `hqa export` gives, before any file is begun. */
function refuseEmpty(ctx: AppContext): void {
  const refusal = emptyExportRefusal(ctx.db);
  if (refusal !== null) throw new DomainError('conflict', refusal);
}

export function exportRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  handle(api, exportApi.status, 'curator', () => ({ refusal: emptyExportRefusal(ctx.db) }));
  handle(api, exportApi.download, 'curator', async ({ body, res, user }) => {
    refuseEmpty(ctx);
    const lines = body.format === 'jsonl' || body.format === 'pairs';
    res.type(lines ? 'application/x-ndjson' : 'application/json');
    res.attachment(`${body.name}${body.format === 'chartqa' ? '.chartqa' : body.format === 'pairs' ? '.pairs' : ''}.${lines ? 'jsonl' : 'json'}`);
    await downloadExport(ctx.db, ctx.events, res, { format: body.format, name: body.name, full: body.full }, user.id);
    res.end();
  });
  handle(api, exportApi.hfDataset, 'curator', async ({ body, res, user }) => {
    refuseEmpty(ctx);
    res.type('application/zip');
    res.attachment(`${body.name}.zip`);
    await downloadHfDataset(ctx.db, ctx.events, res, { name: body.name }, user.id);
    res.end();
  });
  return api.router;
}
