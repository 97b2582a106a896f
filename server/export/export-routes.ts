import type { Router } from 'express';
import { exportApi } from '../../shared/api/export';
import type { AppContext } from '../app-context';
import { apiRouter, handle } from '../http/handle';
import { writeExport } from './export-writer';

export function exportRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  handle(api, exportApi.download, 'curator', async ({ query, res }) => {
    const extension = query.format === 'jsonl' ? 'jsonl' : 'json';
    res.type(query.format === 'jsonl' ? 'application/x-ndjson' : 'application/json');
    res.attachment(`${query.name}${query.format === 'chartqa' ? '.chartqa' : ''}.${extension}`);
    await writeExport(ctx.db, res, { format: query.format, name: query.name, full: query.full === 'true' });
    res.end();
  });
  return api.router;
}
