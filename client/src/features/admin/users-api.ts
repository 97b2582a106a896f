import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CreateUserResponseSchema,
  DisableUserResponseSchema,
  EnableUserResponseSchema,
  ResetPasswordResponseSchema,
  RevokeSessionsResponseSchema,
  UpdateUserResponseSchema,
  UserListResponseSchema,
  type CreateUserRequest,
} from '@shared/api/users';
import type { Role } from '@shared/domain/roles';
import { apiGet, apiPatch, apiPost } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

export function useUsers() {
  return useQuery({
    queryKey: queryKeys.users.list(),
    queryFn: () => apiGet('/api/users', UserListResponseSchema),
  });
}

/** A mutation on the users whose success refreshes the list (status, role, session counts). */
function useUsersMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.users.all() }),
  });
}

export function useCreateUser() {
  return useUsersMutation((body: CreateUserRequest) => apiPost('/api/users', CreateUserResponseSchema, body));
}

export function useUpdateUserRole() {
  return useUsersMutation(({ id, role }: { id: number; role: Role }) => apiPatch(`/api/users/${id}`, UpdateUserResponseSchema, { role }));
}

export function useDisableUser() {
  return useUsersMutation((id: number) => apiPost(`/api/users/${id}/disable`, DisableUserResponseSchema));
}

export function useEnableUser() {
  return useUsersMutation((id: number) => apiPost(`/api/users/${id}/enable`, EnableUserResponseSchema));
}

export function useResetPassword() {
  return useUsersMutation((id: number) => apiPost(`/api/users/${id}/reset-password`, ResetPasswordResponseSchema));
}

export function useRevokeSessions() {
  return useUsersMutation((id: number) => apiPost(`/api/users/${id}/revoke-sessions`, RevokeSessionsResponseSchema));
}
