import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ChartDetailResponseSchema,
  ChartFacetsResponseSchema,
  ChartListResponseSchema,
  UpdateChartResponseSchema,
  type ChartDetailResponse,
  type ChartListQuery,
  type UpdateChartRequest,
} from '@shared/api/charts';
import { apiGet, apiPatch } from './http';
import { queryKeys } from './query-keys';

export function useChartList(query: ChartListQuery) {
  return useQuery({
    queryKey: queryKeys.charts.list(query),
    queryFn: () => apiGet('/api/charts', ChartListResponseSchema, query),
    placeholderData: keepPreviousData,
  });
}

export function useChartFacets() {
  return useQuery({
    queryKey: queryKeys.charts.facets(),
    queryFn: () => apiGet('/api/charts/facets', ChartFacetsResponseSchema),
  });
}

/** One chart with its table and questions; `null` (an id that cannot exist) fetches nothing. */
export function useChart(id: number | null) {
  return useQuery({
    queryKey: queryKeys.charts.detail(id ?? 0),
    queryFn: id === null ? skipToken : () => apiGet(`/api/charts/${id}`, ChartDetailResponseSchema),
  });
}

export function useUpdateChart(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateChartRequest) => apiPatch(`/api/charts/${id}`, UpdateChartResponseSchema, body),
    onSuccess: ({ chart }) => {
      queryClient.setQueryData<ChartDetailResponse>(queryKeys.charts.detail(id), (old) =>
        old ? { ...old, chart: { ...old.chart, ...chart } } : old,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.charts.lists() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.charts.facets() });
    },
  });
}

export function chartImageUrl(chart: { id: number; has_image: boolean; chart_type: string }): string {
  const base = `/api/charts/${chart.id}/image`;
  // A chart without a PNG is drawn from its table according to its type: a new type, a new image.
  return chart.has_image ? base : `${base}?v=${encodeURIComponent(chart.chart_type)}`;
}
