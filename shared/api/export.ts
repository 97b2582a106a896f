import { z } from 'zod';
import { ExportFormatSchema } from '../export/chart-hqa';
import { endpoint } from './endpoint';

// POST /api/export { format: chart-hqa|chartqa|jsonl|pairs, full, name }   (curator) → the file, streamed
export const ExportRequestSchema = z.object({
  format: ExportFormatSchema.default('chart-hqa'),
  full: z.boolean().default(false),
  name: z.string().trim().min(1).max(100).regex(/^[\w.-]+$/, 'may hold letters, digits, _ . -').default('chart-hqa'),
});
export type ExportRequest = z.input<typeof ExportRequestSchema>;

// POST /api/export/hf-dataset { name }   (curator) → a zip of the Hugging Face `imagefolder` dataset `hqa export --format hf-dataset` writes
export const HfExportRequestSchema = ExportRequestSchema.pick({ name: true });
export type HfExportRequest = z.input<typeof HfExportRequestSchema>;

/** Whether an export would hold anything: `refusal` is why not (the reason `hqa export` gives), null when it would. */
export const ExportStatusSchema = z.object({ refusal: z.string().nullable() });
export type ExportStatus = z.infer<typeof ExportStatusSchema>;

/**
 * The downloads are POSTs: each one writes an audit entry in the caller's name, and a GET can be
 * sent with the visitor's cookie by any page (`<img src>` on another port of the same host is
 * same-site); a POST must pass the write guard (JSON, from our own origin).
 */
export const exportApi = {
  /** Whether there is anything to export, and if not why: the page refuses as the CLI does, before a download. */
  status: endpoint('GET', '/api/export/status', { response: ExportStatusSchema }),
  /** Accepted items as a file attachment (JSON, or JSON lines for `jsonl`), streamed; 409 with the reason when there are none. */
  download: endpoint('POST', '/api/export', { body: ExportRequestSchema, response: 'file' }),
  /**
   * The Hugging Face dataset as a `<name>.zip`: `<name>/metadata.jsonl`, `<name>/images/…` and
   * `<name>/README.md`, the files `hqa export --format hf-dataset` writes; 409 with the reason when there are no accepted items.
   */
  hfDataset: endpoint('POST', '/api/export/hf-dataset', { body: HfExportRequestSchema, response: 'file' }),
} as const;
