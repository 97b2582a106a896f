import { z } from 'zod';
import { ImportFormatSchema } from '../domain/benchmark-fields';
import { endpoint } from './endpoint';
import { ImportReportSchema } from './import';

/** A split as curators see it: its name (the key exports and runs use), their label, counts and archive state. */
export const SplitSummarySchema = z.object({
  name: z.string(),
  /** A curator's display name; null shows `name`. Renaming never changes `name`. */
  label: z.string().nullable(),
  charts: z.number().int(),
  questions: z.number().int(),
  items: z.number().int(),
  /** When it was archived: left out of new runs and the review queue; nothing is deleted. */
  archived_at: z.string().nullable(),
  /**
   * Nothing was made from it yet (no item, run task, model call or job task): it may be deleted,
   * as a wrong import is. Any other split is archived instead.
   */
  deletable: z.boolean(),
});
export type SplitSummary = z.infer<typeof SplitSummarySchema>;

/** What a split's deletion took away. */
export const SplitDeletedSchema = z.object({ name: z.string(), charts: z.number().int(), questions: z.number().int(), groups: z.number().int() });
export type SplitDeleted = z.infer<typeof SplitDeletedSchema>;

export const SplitNameParamSchema = z.object({ name: z.string().min(1).max(100) });

export const SplitUpdateSchema = z
  .object({
    /** A new display label; null or '' clears it. */
    label: z.string().trim().max(100).nullable().optional(),
    archived: z.boolean().optional(),
  })
  .strict()
  .refine((body) => body.label !== undefined || body.archived !== undefined, { message: 'give label or archived' });
export type SplitUpdate = z.infer<typeof SplitUpdateSchema>;

/** An upload's options: the body itself is the `.zip` (Content-Type: application/zip). */
export const ImportUploadQuerySchema = z.object({
  /** Detected from the layout when not given. */
  format: ImportFormatSchema.optional(),
  /** The split's name; it never changes which files are read. */
  split: z.string().max(100).optional(),
  /** The uploaded file's name: names the folder it is unpacked into (the split's default name). */
  filename: z.string().max(255).optional(),
  /** Chosen by the client to match `import.progress` events to its upload. */
  upload_id: z.string().regex(/^[\w-]{1,64}$/).optional(),
});

export const ImportUploadResultSchema = z.object({ format: ImportFormatSchema, report: ImportReportSchema });
export type ImportUploadResult = z.infer<typeof ImportUploadResultSchema>;

export const IMPORT_PHASES = ['upload', 'unzip', 'import'] as const;
/** One step of a browser import, sent over socket.io as `import.progress`. */
export const ImportProgressSchema = z.object({
  upload_id: z.string(),
  phase: z.enum(IMPORT_PHASES),
  done: z.number().int(),
  /** Unknown (null) while uploading without a Content-Length. */
  total: z.number().int().nullable(),
});
export type ImportProgress = z.infer<typeof ImportProgressSchema>;

export const splitsApi = {
  list: endpoint('GET', '/api/splits', { response: z.array(SplitSummarySchema) }),
  /** Curator: rename (label) or archive / unarchive a split. */
  update: endpoint('PATCH', '/api/splits/:name', { params: SplitNameParamSchema, body: SplitUpdateSchema, response: SplitSummarySchema }),
  /** Curator: delete a split nothing was made from (`deletable`); 409 naming what was made from any other. */
  remove: endpoint('DELETE', '/api/splits/:name', { params: SplitNameParamSchema, response: SplitDeletedSchema }),
  /** Curator: a `.zip` of a split in any layout `hqa import` reads; answers the same report. */
  upload: endpoint('POST', '/api/imports', { query: ImportUploadQuerySchema, response: ImportUploadResultSchema }),
} as const;
