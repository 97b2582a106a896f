import { AuditActionSchema, AuditTargetTypeSchema, type AuditAction, type AuditFilter, type AuditTargetType } from '@shared/api/audit';
import { parseId } from '../../ui/parse-id';

/** The audit page's filters, kept in the URL (`?action=review.submitted&actor=3&from=2026-12-01`). */
export type AuditPageFilters = {
  action: AuditAction | '';
  actor: number | null;
  targetType: AuditTargetType | '';
  targetId: string;
  /** Dates (YYYY-MM-DD) as the date inputs give them: from the start of `from` to the end of `to`. */
  from: string;
  to: string;
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function readAuditFilters(params: URLSearchParams): AuditPageFilters {
  const action = AuditActionSchema.safeParse(params.get('action'));
  const targetType = AuditTargetTypeSchema.safeParse(params.get('target_type'));
  const date = (key: string) => {
    const value = params.get(key) ?? '';
    return DATE.test(value) ? value : '';
  };
  return {
    action: action.success ? action.data : '',
    actor: parseId(params.get('actor')),
    targetType: targetType.success ? targetType.data : '',
    targetId: params.get('target_id') ?? '',
    from: date('from'),
    to: date('to'),
  };
}

export function writeAuditFilters(current: AuditPageFilters, change: Partial<AuditPageFilters>): URLSearchParams {
  const next = { ...current, ...change };
  const params = new URLSearchParams();
  if (next.action) params.set('action', next.action);
  if (next.actor !== null) params.set('actor', String(next.actor));
  if (next.targetType) params.set('target_type', next.targetType);
  if (next.targetId.trim()) params.set('target_id', next.targetId.trim());
  if (next.from) params.set('from', next.from);
  if (next.to) params.set('to', next.to);
  return params;
}

/** The day after a YYYY-MM-DD date, so "to" includes the whole of its day (the API's `to` is exclusive). */
function dayAfter(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** The API filter the page's filters stand for; dates are UTC days. */
export function toAuditFilter(filters: AuditPageFilters): AuditFilter {
  return {
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.actor !== null ? { actor_id: filters.actor } : {}),
    ...(filters.targetType ? { target_type: filters.targetType } : {}),
    ...(filters.targetId.trim() ? { target_id: filters.targetId.trim() } : {}),
    ...(filters.from ? { from: `${filters.from}T00:00:00.000Z` } : {}),
    ...(filters.to ? { to: `${dayAfter(filters.to)}T00:00:00.000Z` } : {}),
  };
}
