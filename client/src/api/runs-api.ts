import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { healthApi } from '@shared/api/health';
import { runsApi, type RunDetailResponseSchema, type Run, type RunConfigInput } from '@shared/api/runs';
import { call } from './http';
import { queryKeys } from './query-keys';

type RunDetailResponse = z.infer<typeof RunDetailResponseSchema>;

export const RUN_PAGE_SIZE = 20;

export type RunAction = 'pause' | 'resume' | 'cancel';

/**
 * Whether the server has an API key, so the OpenAI engine can run. `keyMissing` is true only
 * once the server has said so: a form does not warn while the answer is on its way.
 */
export function useOpenaiAvailability(): { available: boolean; keyMissing: boolean } {
  const health = useQuery({
    queryKey: queryKeys.health(),
    queryFn: () => call(healthApi.get),
    staleTime: 5 * 60_000,
  });
  const available = health.data?.engine === 'openai';
  return { available, keyMissing: health.data !== undefined && !available };
}

export function useRuns(page: number) {
  return useQuery({
    queryKey: queryKeys.runs.list(page),
    queryFn: () => call(runsApi.list, { query: { page, page_size: RUN_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
}

/** One run with its errors; `null` (an id that cannot exist) fetches nothing. */
export function useRun(id: number | null) {
  return useQuery({
    queryKey: queryKeys.runs.detail(id ?? 0),
    queryFn: id === null ? skipToken : () => call(runsApi.get, { params: { id } }),
  });
}

/**
 * After a start or a control action: the response may be older than pushes that raced it
 * (an offline run can finish before its POST answers), so it only fills an empty cache and
 * the run is fetched again.
 */
function rememberRun(queryClient: ReturnType<typeof useQueryClient>, run: Run): void {
  const detailKey = queryKeys.runs.detail(run.id);
  queryClient.setQueryData<RunDetailResponse>(detailKey, (old) => old ?? { run, errors: [], declines: [] });
  void queryClient.invalidateQueries({ queryKey: detailKey });
  void queryClient.invalidateQueries({ queryKey: queryKeys.runs.lists() });
}

export function useStartRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: RunConfigInput) => call(runsApi.create, { body: config }),
    onSuccess: ({ run }) => rememberRun(queryClient, run),
  });
}

export function useRunAction(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: RunAction) => call(runsApi[action], { params: { id } }),
    onSuccess: ({ run }) => rememberRun(queryClient, run),
  });
}
