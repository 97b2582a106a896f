import type { Router } from 'express';
import { exportApi } from '../../shared/api/export';
import type { AppContext } from '../app-context';
import { apiRouter, handle } from '../http/handle';
import { downloadExport } from './download-export';

export function exportRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  handle(api, exportApi.download, 'curator', async ({ query, res, user }) => {
    const lines = query.format === 'jsonl' || query.format === 'pairs';
    res.type(lines ? 'application/x-ndjson' : 'application/json');
    res.attachment(`${query.name}${query.format === 'chartqa' ? '.chartqa' : query.format === 'pairs' ? '.pairs' : ''}.${lines ? 'jsonl' : 'json'}`);
    await downloadExport(ctx.db, res, { format: query.format, name: query.name, full: query.full === 'true' }, user.id);
    res.end();
  });
  return api.router;
}
