import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { reviewApi, type AdjudicateRequestSchema } from '@shared/api/review';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

export type AdjudicateRequest = z.input<typeof AdjudicateRequestSchema>;

/** Items the consensus rule could not decide, with every standing review. */
export function useAdjudicationList() {
  return useQuery({
    queryKey: queryKeys.review.adjudication(),
    queryFn: () => call(reviewApi.adjudication),
  });
}

export function useAdjudicate(itemId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdjudicateRequest) => call(reviewApi.adjudicate, { params: { id: itemId }, body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.review.adjudication() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.items.detail(itemId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.items.lists() });
    },
  });
}
