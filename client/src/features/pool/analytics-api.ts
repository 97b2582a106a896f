import { useQuery } from '@tanstack/react-query';
import { analyticsApi } from '@shared/api/analytics';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

/** Pool growth, pass rates, operations and diversity; refetched (throttled) as the pool and reviews change. */
export function usePoolAnalytics() {
  return useQuery({
    queryKey: queryKeys.analytics.pool(),
    queryFn: () => call(analyticsApi.pool),
  });
}

/** A proposal's ancestors, itself and its descendants, each with its pass rate. */
export function useLineage(proposalId: number) {
  return useQuery({
    queryKey: queryKeys.analytics.lineage(proposalId),
    queryFn: () => call(analyticsApi.lineage, { params: { id: proposalId } }),
  });
}
