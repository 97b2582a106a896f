import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsApi, type UpdateSettingsRequest } from '@shared/api/settings';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

export function useSettings() {
  return useQuery({
    queryKey: queryKeys.settings(),
    queryFn: () => call(settingsApi.get),
  });
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSettingsRequest) => call(settingsApi.update, { body }),
    onSuccess: (response) => queryClient.setQueryData(queryKeys.settings(), response),
  });
}
