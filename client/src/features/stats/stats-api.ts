import { useQuery } from '@tanstack/react-query';
import { ReviewStatsResponseSchema } from '../../../../shared/api/review';
import { apiGet } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

/** The caller's review figures and, for curators, the team's; refetched when an item is decided. */
export function useReviewStats() {
  return useQuery({
    queryKey: queryKeys.review.stats(),
    queryFn: () => apiGet('/api/review/stats', ReviewStatsResponseSchema),
  });
}
