import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { analyticsApi } from '@shared/api/analytics';
import { reviewApi } from '@shared/api/review';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

/** The caller's review figures and, for curators, the team's; refetched when an item is decided. */
export function useReviewStats() {
  return useQuery({
    queryKey: queryKeys.review.stats(),
    queryFn: () => call(reviewApi.stats),
  });
}

/** Human vs machine vs HAI, reviewer time priced at `reviewerHourlyRate`; curators only. */
export function useAblation(reviewerHourlyRate: number) {
  return useQuery({
    queryKey: queryKeys.analytics.ablation(reviewerHourlyRate),
    queryFn: () => call(analyticsApi.ablation, { query: { reviewer_hourly_rate: reviewerHourlyRate } }),
    placeholderData: keepPreviousData,
  });
}

/** Accepted items per operation × chart type × answer type × affects-answer, and the `limit` thinnest cells; curators only. */
export function useCoverage(limit: number) {
  return useQuery({
    queryKey: queryKeys.analytics.coverage(limit),
    queryFn: () => call(analyticsApi.coverage, { query: { limit } }),
    placeholderData: keepPreviousData,
  });
}
