import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { usersApi, type CreateUserRequest } from '@shared/api/users';
import type { Role } from '@shared/domain/roles';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

export function useUsers() {
  return useQuery({
    queryKey: queryKeys.users.list(),
    queryFn: () => call(usersApi.list),
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
  return useUsersMutation((body: CreateUserRequest) => call(usersApi.create, { body }));
}

export function useUpdateUserRole() {
  return useUsersMutation(({ id, role }: { id: number; role: Role }) => call(usersApi.update, { params: { id }, body: { role } }));
}

export function useDisableUser() {
  return useUsersMutation((id: number) => call(usersApi.disable, { params: { id } }));
}

export function useEnableUser() {
  return useUsersMutation((id: number) => call(usersApi.enable, { params: { id } }));
}

export function useResetPassword() {
  return useUsersMutation((id: number) => call(usersApi.resetPassword, { params: { id } }));
}

export function useRevokeSessions() {
  return useUsersMutation((id: number) => call(usersApi.revokeSessions, { params: { id } }));
}
