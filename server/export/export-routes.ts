import { Router } from 'express';
import { z } from 'zod';
import { ExportFormatSchema } from '../../shared/export/chart-hqa';
import type { AppContext } from '../app-context';
import { requireRole } from '../auth/auth-middleware';
import { parseInput } from '../http/validate';
import { writeExport } from './export-writer';

// GET /api/export?format=chart-hqa|chartqa|jsonl&full=true&name=…   (curator) → the file, streamed
const ExportQuerySchema = z.object({
  format: ExportFormatSchema.default('chart-hqa'),
  full: z.enum(['true', 'false']).default('false'),
  name: z.string().trim().min(1).max(100).regex(/^[\w.-]+$/, 'may hold letters, digits, _ . -').default('chart-hqa'),
});

export function exportRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/', requireRole(ctx.db, 'curator'), async (req, res) => {
    const query = parseInput(ExportQuerySchema, req.query, 'query');
    const extension = query.format === 'jsonl' ? 'jsonl' : 'json';
    res.type(query.format === 'jsonl' ? 'application/x-ndjson' : 'application/json');
    res.attachment(`${query.name}${query.format === 'chartqa' ? '.chartqa' : ''}.${extension}`);
    await writeExport(ctx.db, res, { format: query.format, name: query.name, full: query.full === 'true' });
    res.end();
  });
  return router;
}
