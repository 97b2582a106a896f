import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { ReflectionListResponseSchema, ReflectResponseSchema } from '../../../../shared/api/reflection';
import { apiGet, apiPost } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

export type ReflectResponse = z.infer<typeof ReflectResponseSchema>;

/** A proposal's reflections, newest first, and the feedback its items gathered so far. */
export function useReflections(proposalId: number) {
  return useQuery({
    queryKey: queryKeys.pool.reflections(proposalId),
    queryFn: () => apiGet(`/api/reflection/proposals/${proposalId}`, ReflectionListResponseSchema),
  });
}

/**
 * A curator's "reflect now": the server revises the proposal from its feedback (409 when there
 * is none yet, or a revision is under way). The revised proposal reaches lists by its push.
 */
export function useReflect(proposalId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost(`/api/reflection/proposals/${proposalId}`, ReflectResponseSchema),
    onSuccess: ({ revised }) => {
      if (revised) queryClient.setQueryData(queryKeys.pool.detail(revised.id), { proposal: revised });
      void queryClient.invalidateQueries({ queryKey: queryKeys.pool.reflections(proposalId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.pool.detail(proposalId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.analytics.lineage(proposalId) });
    },
  });
}
