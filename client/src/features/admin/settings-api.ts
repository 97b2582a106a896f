import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SettingsResponseSchema, type UpdateSettingsRequest } from '@shared/api/settings';
import { apiGet, apiPatch } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

export function useSettings() {
  return useQuery({
    queryKey: queryKeys.settings(),
    queryFn: () => apiGet('/api/settings', SettingsResponseSchema),
  });
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSettingsRequest) => apiPatch('/api/settings', SettingsResponseSchema, body),
    onSuccess: (response) => queryClient.setQueryData(queryKeys.settings(), response),
  });
}
