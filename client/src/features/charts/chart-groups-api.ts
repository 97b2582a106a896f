import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  chartGroupsApi,
  type AddGroupQuestionRequest,
  type ChartGroupListQuery,
  type CreateChartGroupRequest,
  type UpdateChartGroupRequest,
} from '@shared/api/chart-groups';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

/** The Groups view's fetches and writes; every write refetches the groups (lists and pages) and the charts' question counts. */

export function useChartGroups(query: ChartGroupListQuery) {
  return useQuery({ queryKey: queryKeys.charts.groupList(query), queryFn: () => call(chartGroupsApi.list, { query }), placeholderData: keepPreviousData });
}

/** One group with its charts and questions; `null` (an id that cannot exist) fetches nothing. */
export function useChartGroup(id: number | null) {
  return useQuery({ queryKey: queryKeys.charts.group(id ?? 0), queryFn: id === null ? skipToken : () => call(chartGroupsApi.get, { params: { id } }) });
}

function useGroupWrite<T, R>(write: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    // A question over a group is stored on its first chart: that chart's count changes too.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.charts.all() }),
  });
}

export function useCreateChartGroup() {
  return useGroupWrite((body: CreateChartGroupRequest) => call(chartGroupsApi.create, { body }));
}

export function useUpdateChartGroup(id: number) {
  return useGroupWrite((body: UpdateChartGroupRequest) => call(chartGroupsApi.update, { params: { id }, body }));
}

export function useAddGroupQuestion(id: number) {
  return useGroupWrite((body: AddGroupQuestionRequest) => call(chartGroupsApi.addQuestion, { params: { id }, body }));
}

export function useDeleteChartGroup(id: number) {
  return useGroupWrite(() => call(chartGroupsApi.remove, { params: { id } }));
}
