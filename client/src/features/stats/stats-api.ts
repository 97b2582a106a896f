import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AblationResponseSchema, CoverageResponseSchema } from '@shared/api/analytics';
import { ReviewStatsResponseSchema } from '@shared/api/review';
import { apiGet } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

/** The caller's review figures and, for curators, the team's; refetched when an item is decided. */
export function useReviewStats() {
  return useQuery({
    queryKey: queryKeys.review.stats(),
    queryFn: () => apiGet('/api/review/stats', ReviewStatsResponseSchema),
  });
}

/** Human vs machine vs HAI, reviewer time priced at `reviewerHourlyRate`; curators only. */
export function useAblation(reviewerHourlyRate: number) {
  return useQuery({
    queryKey: queryKeys.analytics.ablation(reviewerHourlyRate),
    queryFn: () => apiGet('/api/analytics/ablation', AblationResponseSchema, { reviewer_hourly_rate: reviewerHourlyRate }),
    placeholderData: keepPreviousData,
  });
}

/** Accepted items per operation × chart type × answer type × affects-answer, and the `limit` thinnest cells; curators only. */
export function useCoverage(limit: number) {
  return useQuery({
    queryKey: queryKeys.analytics.coverage(limit),
    queryFn: () => apiGet('/api/analytics/coverage', CoverageResponseSchema, { limit }),
    placeholderData: keepPreviousData,
  });
}
