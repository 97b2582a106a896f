import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { tablesApi, type EditedTable, type SaveTableResponse } from '@shared/api/tables';
import { call } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';

/** A chart's table with its source and confirmation, for the editor. */
export function useChartTable(id: number) {
  return useQuery({ queryKey: queryKeys.charts.table(id), queryFn: () => call(tablesApi.get, { params: { id } }) });
}

/** After any table write: the table, the chart's page (its table and counts) and the lists refetch. */
function useTableWrite<A>(id: number, write: (arg: A) => Promise<{ table: SaveTableResponse['table'] }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: ({ table }) => {
      queryClient.setQueryData(queryKeys.charts.table(id), table);
      void queryClient.invalidateQueries({ queryKey: queryKeys.charts.detail(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.charts.lists() });
      // A group page shows whether each of its charts' tables is confirmed.
      void queryClient.invalidateQueries({ queryKey: queryKeys.charts.groups() });
    },
  });
}

export const useSaveTable = (id: number) => useTableWrite(id, (body: EditedTable) => call(tablesApi.save, { params: { id }, body }));
export const useConfirmTable = (id: number) => useTableWrite(id, () => call(tablesApi.confirm, { params: { id } }));
export const useUnconfirmTable = (id: number) => useTableWrite(id, () => call(tablesApi.unconfirm, { params: { id } }));
export const useExtractTable = (id: number) => useTableWrite(id, () => call(tablesApi.extract, { params: { id } }));
