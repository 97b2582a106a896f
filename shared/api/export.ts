import { z } from 'zod';
import { ExportFormatSchema } from '../export/chart-hqa';
import { endpoint } from './endpoint';

// GET /api/export?format=chart-hqa|chartqa|jsonl|pairs&full=true&name=…   (curator) → the file, streamed
export const ExportQuerySchema = z.object({
  format: ExportFormatSchema.default('chart-hqa'),
  full: z.enum(['true', 'false']).default('false'),
  name: z.string().trim().min(1).max(100).regex(/^[\w.-]+$/, 'may hold letters, digits, _ . -').default('chart-hqa'),
});
export type ExportQuery = z.input<typeof ExportQuerySchema>;

export const exportApi = {
  /** Accepted items as a file attachment (JSON, or JSON lines for `jsonl`), streamed. */
  download: endpoint('GET', '/api/export', { query: ExportQuerySchema, response: 'file' }),
} as const;
