import { z } from 'zod';

export const ImportErrorSchema = z.object({
  file: z.string(),
  line: z.number().int().optional(),
  message: z.string(),
});
export type ImportError = z.infer<typeof ImportErrorSchema>;

/** What `hqa import --json` prints and what an import run reports. */
export const ImportReportSchema = z.object({
  split: z.string(),
  charts_imported: z.number().int(),
  charts_updated: z.number().int(),
  charts_skipped: z.number().int(),
  qas_imported: z.number().int(),
  errors: z.array(ImportErrorSchema),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;
