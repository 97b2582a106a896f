import type { Router } from 'express';
import { auditApi } from '../../shared/api/audit';
import type { AppContext } from '../app-context';
import { apiRouter, handle } from '../http/handle';
import { iterateAuditEntries, listAuditEntries } from './audit-queries';

/** Every route here is the admin's. */
export function auditRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  handle(api, auditApi.list, 'admin', ({ query: { before_id, limit, ...filter } }) => {
    // One row more than asked tells whether an older page exists without a count.
    const rows = listAuditEntries(ctx.db, filter, limit + 1, before_id);
    const entries = rows.slice(0, limit);
    return { entries, next_before_id: rows.length > limit ? (entries.at(-1)?.id ?? null) : null };
  });
  handle(api, auditApi.export, 'admin', async ({ query, res }) => {
    // attachment() sets the type from the extension (octet-stream for .jsonl): the type goes after it.
    res.attachment('audit-log.jsonl');
    res.type('application/x-ndjson');
    for (const entry of iterateAuditEntries(ctx.db, query)) {
      // Honour back-pressure so a long log streams in flat memory.
      if (!res.write(`${JSON.stringify(entry)}\n`)) await new Promise<void>((resolve) => res.once('drain', resolve));
    }
    res.end();
  });
  return api.router;
}
