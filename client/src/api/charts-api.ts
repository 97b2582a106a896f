import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { endpointUrl } from '@shared/api/endpoint';
import { chartsApi, type ChartDetailResponse, type ChartListQuery, type UpdateChartRequest } from '@shared/api/charts';
import { call } from './http';
import { queryKeys } from './query-keys';

export function useChartList(query: ChartListQuery) {
  return useQuery({
    queryKey: queryKeys.charts.list(query),
    queryFn: () => call(chartsApi.list, { query }),
    placeholderData: keepPreviousData,
  });
}

export function useChartFacets() {
  return useQuery({
    queryKey: queryKeys.charts.facets(),
    queryFn: () => call(chartsApi.facets),
  });
}

/** One chart with its table and questions; `null` (an id that cannot exist) fetches nothing. */
export function useChart(id: number | null) {
  return useQuery({
    queryKey: queryKeys.charts.detail(id ?? 0),
    queryFn: id === null ? skipToken : () => call(chartsApi.get, { params: { id } }),
  });
}

export function useUpdateChart(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateChartRequest) => call(chartsApi.update, { params: { id }, body }),
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
  // A chart without a PNG is drawn from its table according to its type: a new type, a new image.
  return endpointUrl(chartsApi.image, { params: { id: chart.id }, query: chart.has_image ? {} : { v: chart.chart_type } });
}
