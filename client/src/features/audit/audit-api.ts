import { useInfiniteQuery } from '@tanstack/react-query';
import { auditApi, type AuditFilter } from '@shared/api/audit';
import { endpointUrl } from '@shared/api/endpoint';
import { call } from '../../api/http';

/** Entries per page; "Older entries" loads the next page below. */
export const AUDIT_PAGE_SIZE = 50;

/** The audit log under a filter, newest first, a page at a time (keyset by id). */
export function useAuditLog(filter: AuditFilter) {
  return useInfiniteQuery({
    queryKey: ['audit', 'list', filter] as const,
    queryFn: ({ pageParam }) => call(auditApi.list, { query: { ...filter, limit: AUDIT_PAGE_SIZE, ...(pageParam !== null ? { before_id: pageParam } : {}) } }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_before_id,
  });
}

/** The download of every entry under the filter, as JSON lines. */
export function auditExportUrl(filter: AuditFilter): string {
  return endpointUrl(auditApi.export, { query: filter });
}
