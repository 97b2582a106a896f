import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { extractionJobsApi, type ExtractionJob } from '@shared/api/tables';
import type { ChartType } from '@shared/domain/chart-types';
import { call } from './http';
import { queryKeys } from './query-keys';
import { applyExtractionJob } from './socket';

/** What an "Extract tables" button covers: a split, a chart type, both, or every chart. */
export interface ExtractionTarget {
  split?: string | undefined;
  chart_type?: ChartType | undefined;
}

/** How many charts a job over `target` would read now, and with which model (null: none configured, `unavailable` says why). */
export function useExtractionPlan(target: ExtractionTarget, enabled = true) {
  return useQuery({
    queryKey: queryKeys.extractionJobs.plan(target),
    queryFn: () => call(extractionJobsApi.plan, { query: { ...target, force: 'false' } }),
    enabled,
  });
}

/** The newest jobs, kept live by `extraction.progressed` pushes. */
export function useExtractionJobs(enabled = true) {
  return useQuery({
    queryKey: queryKeys.extractionJobs.list(),
    queryFn: async () => (await call(extractionJobsApi.list)).jobs,
    enabled,
  });
}

export function useStartExtraction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: ExtractionTarget) => call(extractionJobsApi.create, { body: { ...target, force: false } }),
    onSuccess: ({ job }) => {
      // The list may not be loaded yet: seed it, so the panel shows the job before the first push.
      const known = queryClient.getQueryData<ExtractionJob[]>(queryKeys.extractionJobs.list());
      if (known) applyExtractionJob(queryClient, job);
      else queryClient.setQueryData<ExtractionJob[]>(queryKeys.extractionJobs.list(), [job]);
      void queryClient.invalidateQueries({ queryKey: queryKeys.extractionJobs.plans() });
    },
  });
}

export type ExtractionAction = 'pause' | 'resume' | 'cancel';

export function useExtractionAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: ExtractionAction }) => call(extractionJobsApi[action], { params: { id } }),
    onSuccess: ({ job }) => applyExtractionJob(queryClient, job),
  });
}
