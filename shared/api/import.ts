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
  /** Items of charts whose table changed, verified again against the new table. */
  items_reverified: z.number().int(),
  /** Of those, items under review or accepted whose recomputed answer changed: back in the queue (`table_changed`). */
  items_requeued: z.number().int(),
  /** Chart groups created (MultiChartQA's group folders); 0 for formats without groups. */
  groups_imported: z.number().int(),
  /** Benchmark charts whose image was not found under the image folder (or no folder was given): listed as "image missing". Absent for ChartQA, whose charts are drawn from their tables. */
  images_missing: z.number().int().optional(),
  errors: z.array(ImportErrorSchema),
  /** What the import did not find although it did not fail: e.g. tables but no question files (0 questions is then not a silent success). Absent when there is nothing to say. */
  warnings: z.array(z.string()).optional(),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;
