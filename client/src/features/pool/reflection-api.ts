import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  reflectionApi,
  type ReflectResponseSchema,
  type ReflectionBatch,
} from '@shared/api/reflection';
import type { ChartType } from '@shared/domain/chart-types';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import { applyReflectionBatch } from '../../api/socket';

export type ReflectResponse = z.infer<typeof ReflectResponseSchema>;

/** A proposal's reflections, newest first, and the feedback its items gathered so far. */
export function useReflections(proposalId: number) {
  return useQuery({
    queryKey: queryKeys.pool.reflections(proposalId),
    queryFn: () => call(reflectionApi.list, { params: { id: proposalId } }),
  });
}

/**
 * A curator's "reflect now": the server revises the proposal from its feedback (409 when there
 * is none yet, or a revision is under way). The revised proposal reaches lists by its push.
 */
export function useReflect(proposalId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(reflectionApi.reflect, { params: { id: proposalId } }),
    onSuccess: ({ revised }) => {
      if (revised) queryClient.setQueryData(queryKeys.pool.detail(revised.id), { proposal: revised });
      void queryClient.invalidateQueries({ queryKey: queryKeys.pool.reflections(proposalId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.pool.detail(proposalId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.analytics.lineage(proposalId) });
    },
  });
}

/**
 * A curator's "reflect on all with new feedback", optionally of one chart type. The server
 * answers at once; progress arrives as `reflection.progressed` pushes.
 */
export function useStartReflectionBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (chartType: ChartType | undefined) =>
      call(reflectionApi.startBatch, { body: chartType ? { chart_type: chartType } : {} }),
    onSuccess: ({ batch }) => applyReflectionBatch(queryClient, batch),
  });
}

/** A batch's latest pushed state (the socket keeps it; the list below seeds it). */
export function useReflectionBatch(batchId: number | null): ReflectionBatch | undefined {
  const { data } = useQuery<ReflectionBatch>({
    queryKey: batchId === null ? queryKeys.reflectionBatches.all() : queryKeys.reflectionBatches.detail(batchId),
    queryFn: skipToken,
    staleTime: Infinity,
  });
  return batchId === null ? undefined : data;
}

/**
 * The newest batch the server remembers, for a page opened (or a socket reconnected) after it
 * started: its state seeds the pushed one, which only ever moves forward.
 */
export function useLatestReflectionBatch(): ReflectionBatch | undefined {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: queryKeys.reflectionBatches.list(),
    queryFn: async () => {
      const { batches } = await call(reflectionApi.batches);
      for (const batch of batches) applyReflectionBatch(queryClient, batch);
      return batches;
    },
  });
  return data?.[0];
}
