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

// GET /api/export/hf-dataset?name=…   (curator) → a zip of the Hugging Face `imagefolder` dataset `hqa export --format hf-dataset` writes
export const HfExportQuerySchema = ExportQuerySchema.pick({ name: true });
export type HfExportQuery = z.input<typeof HfExportQuerySchema>;

/** Whether an export would hold anything: `refusal` is why not (the reason `hqa export` gives), null when it would. */
export const ExportStatusSchema = z.object({ refusal: z.string().nullable() });
export type ExportStatus = z.infer<typeof ExportStatusSchema>;

export const exportApi = {
  /** Whether there is anything to export, and if not why: the page refuses as the CLI does, before a download. */
  status: endpoint('GET', '/api/export/status', { response: ExportStatusSchema }),
  /** Accepted items as a file attachment (JSON, or JSON lines for `jsonl`), streamed; 409 with the reason when there are none. */
  download: endpoint('GET', '/api/export', { query: ExportQuerySchema, response: 'file' }),
  /**
   * The Hugging Face dataset as a `<name>.zip`: `<name>/metadata.jsonl`, `<name>/images/…` and
   * `<name>/README.md`, the files `hqa export --format hf-dataset` writes; 409 with the reason when there are no accepted items.
   */
  hfDataset: endpoint('GET', '/api/export/hf-dataset', { query: HfExportQuerySchema, response: 'file' }),
} as const;
