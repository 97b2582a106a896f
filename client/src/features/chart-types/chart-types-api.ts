import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { chartTypeJobsApi, chartTypesApi, type ChartTypeJob } from '@shared/api/chart-types';
import { chartsApi } from '@shared/api/charts';
import type { ChartType } from '@shared/domain/chart-types';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import { applyChartTypeJob } from '../../api/socket';

/** The unconfirmed charts of a split ('' for every split) and the counts by type state; refetched as charts change. */
export function useTriage(split: string) {
  return useQuery({
    queryKey: queryKeys.chartTypes.triage(split),
    queryFn: () => call(chartTypesApi.triage, { query: { split: split || undefined } }),
  });
}

/** A curator's type for a chart (the suggested one confirmed, or another): the chart leaves the triage. */
export function useDecideType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, chartType }: { id: number; chartType: ChartType }) => call(chartsApi.update, { params: { id }, body: { chart_type: chartType } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.chartTypes.triages() }),
  });
}

/** Takes back the chart's latest type decision: it comes back to the triage as it was. */
export function useUndoType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(chartTypesApi.undo, { params: { id } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.chartTypes.triages() }),
  });
}

/** How many charts a vision job over the split would ask about, and with which model (null: none configured). */
export function useVisionPlan(split: string) {
  return useQuery({
    queryKey: queryKeys.chartTypes.plan(split),
    queryFn: () => call(chartTypeJobsApi.plan, { query: { split: split || undefined } }),
  });
}

/** The newest vision jobs, kept live by `chart_type_job.progressed`. */
export function useVisionJobs() {
  return useQuery({
    queryKey: queryKeys.chartTypes.jobs(),
    queryFn: async () => (await call(chartTypeJobsApi.list)).jobs,
  });
}

export function useStartVisionJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (split: string) => call(chartTypeJobsApi.create, { body: { split: split || undefined } }),
    onSuccess: ({ job }) => {
      // Seeded, so the panel shows the job before its first push.
      const known = queryClient.getQueryData<ChartTypeJob[]>(queryKeys.chartTypes.jobs());
      if (known) applyChartTypeJob(queryClient, job);
      else queryClient.setQueryData<ChartTypeJob[]>(queryKeys.chartTypes.jobs(), [job]);
      void queryClient.invalidateQueries({ queryKey: queryKeys.chartTypes.plans() });
    },
  });
}

export function useCancelVisionJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(chartTypeJobsApi.cancel, { params: { id } }),
    onSuccess: ({ job }) => applyChartTypeJob(queryClient, job),
  });
}
