import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CreateUserResponseSchema,
  UpdateUserResponseSchema,
  UserListResponseSchema,
  type CreateUserRequest,
} from '../../../../shared/api/users';
import type { Role } from '../../../../shared/domain/roles';
import { apiGet, apiPatch, apiPost } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

export function useUsers() {
  return useQuery({
    queryKey: queryKeys.users.list(),
    queryFn: () => apiGet('/api/users', UserListResponseSchema),
  });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateUserRequest) => apiPost('/api/users', CreateUserResponseSchema, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.users.all() }),
  });
}

export function useUpdateUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: number; role: Role }) =>
      apiPatch(`/api/users/${id}`, UpdateUserResponseSchema, { role }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.users.all() }),
  });
}
