import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { publishedFiguresApi, type UploadPublishedTableRequest } from '@shared/api/evaluations';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

/**
 * Published tables uploaded for the team. No socket event announces them (a table changes only
 * when a curator uploads or deletes one), so this client refetches after its own changes and
 * on reconnect; another curator's upload shows once the list is fetched again (a later visit
 * after the query's stale time, a reload).
 */
export function usePublishedTables() {
  return useQuery({
    queryKey: queryKeys.evals.published(),
    queryFn: () => call(publishedFiguresApi.list),
  });
}

export function useUploadPublishedTable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UploadPublishedTableRequest) => call(publishedFiguresApi.upload, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.evals.published() }),
  });
}

export function useRemovePublishedTable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(publishedFiguresApi.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.evals.published() }),
  });
}
