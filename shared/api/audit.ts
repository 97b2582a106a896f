import { z } from 'zod';
import { IdSchema } from './common';
import { endpoint } from './endpoint';

/** Every action the audit log records; named `entity.pastTenseVerb` like the socket events. */
export const AUDIT_ACTIONS = [
  'login.succeeded',
  'login.failed',
  'user.created',
  'user.role_changed',
  'user.disabled',
  'user.enabled',
  'user.password_reset',
  'user.sessions_revoked',
  'settings.updated',
  'split.imported',
  'split.deleted',
  'split.relabelled',
  'split.archived',
  'split.unarchived',
  'run.started',
  'run.paused',
  'run.resumed',
  'run.cancelled',
  'review.submitted',
  'review.undone',
  'item.adjudicated',
  /** Decided other than by a submit: a change of the reviews per item made its standing reviews enough. */
  'item.decided',
  'item.edited',
  'item.assigned',
  'item.unassigned',
  'item.retired',
  'item.restored',
  'item.gold_marked',
  'queue.created',
  'queue.member_added',
  'queue.member_removed',
  'queue.renamed',
  'queue.deleted',
  'comment.posted',
  'eval.started',
  'eval.imported',
  'eval.resumed',
  'eval.cancelled',
  'extraction.started',
  'chart.type_changed',
  'chart.type_change_undone',
  /** A curator's table stored (and with it confirmed). */
  'chart.table_saved',
  'chart.table_confirmed',
  /** A confirmed table set back to unconfirmed: no item is verified on it until it is confirmed again. */
  'chart.table_unconfirmed',
  'chart_type_job.started',
  'export.downloaded',
  'chart_group.created',
  'chart_group.edited',
  'chart_group.question_added',
  'chart_group.deleted',
] as const;
export const AuditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditActionSchema>;

/** What an entry's target is; its id is kept as text (a split is named by its folder). */
export const AUDIT_TARGET_TYPES = ['user', 'settings', 'split', 'run', 'eval_run', 'item', 'export', 'chart', 'chart_group', 'queue', 'extraction_job', 'chart_type_job'] as const;
export const AuditTargetTypeSchema = z.enum(AUDIT_TARGET_TYPES);
export type AuditTargetType = z.infer<typeof AuditTargetTypeSchema>;

export const AuditDetailsSchema = z.record(z.string(), z.unknown());
export type AuditDetails = z.infer<typeof AuditDetailsSchema>;

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  /** ISO 8601, UTC. */
  at: z.string(),
  /** Null for the system or the CLI, and a failed login by an unknown name. */
  actor_id: z.number().int().nullable(),
  actor_username: z.string().nullable(),
  action: AuditActionSchema,
  target_type: AuditTargetTypeSchema.nullable(),
  target_id: z.string().nullable(),
  details: AuditDetailsSchema,
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** An ISO 8601 instant as a query string carries it (`2026-12-02T14:00:00Z`, or a date alone). */
const InstantSchema = z
  .string()
  .trim()
  .refine((text) => /^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(Date.parse(text)), 'must be an ISO 8601 date or time')
  .transform((text) => new Date(text).toISOString());

/** What narrows the audit log; the list and the export take the same fields. */
export const AuditFilterSchema = z.object({
  actor_id: IdSchema.optional(),
  action: AuditActionSchema.optional(),
  target_type: AuditTargetTypeSchema.optional(),
  target_id: z.string().trim().min(1).max(200).optional(),
  /** Entries at or after this instant. */
  from: InstantSchema.optional(),
  /** Entries before this instant. */
  to: InstantSchema.optional(),
});
export type AuditFilter = z.infer<typeof AuditFilterSchema>;

// GET /api/audit   (admin): newest first, keyset paging by id (`before_id` from the previous page's next_before_id)
export const AuditListQuerySchema = AuditFilterSchema.extend({
  before_id: IdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditListQuery = z.input<typeof AuditListQuerySchema>;
export const AuditListResponseSchema = z.object({
  entries: z.array(AuditEntrySchema),
  /** Pass as `before_id` for the next (older) page; null at the end. */
  next_before_id: z.number().int().nullable(),
});
export type AuditListResponse = z.infer<typeof AuditListResponseSchema>;

// GET /api/audit/export   (admin): every entry the filter matches, newest first, as JSON lines, streamed
export const AuditExportQuerySchema = AuditFilterSchema;

/** Admin only. */
export const auditApi = {
  list: endpoint('GET', '/api/audit', { query: AuditListQuerySchema, response: AuditListResponseSchema }),
  /** One AuditEntry per line (`application/x-ndjson`), as an attachment. */
  export: endpoint('GET', '/api/audit/export', { query: AuditExportQuerySchema, response: 'file' }),
} as const;
