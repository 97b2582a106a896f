import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { authApi, type LoginRequest, type User } from '@shared/api/auth';
import { call, isApiError } from '../api/http';
import { queryKeys } from '../api/query-keys';
import { clearSignedOutNotice, setSignedOutNotice } from './signed-out-notice';

/** The signed-in user, or null when there is no session (a 401 is an answer here, not an error). */
async function fetchMe(): Promise<User | null> {
  try {
    const { user } = await call(authApi.me);
    return user;
  } catch (error) {
    if (isApiError(error) && error.status === 401) {
      if (error.code === 'session_cookie_conflict') setSignedOutNotice(error.message);
      return null;
    }
    throw error;
  }
}

/** Nothing cached under one session may leak into the next (the session query itself stays observed). */
function forgetSessionData(queryClient: QueryClient): void {
  const sessionKey = queryKeys.me();
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
}

export function useSession() {
  return useQuery({ queryKey: queryKeys.me(), queryFn: fetchMe, staleTime: 5 * 60_000 });
}

/** The signed-in user; only for components rendered inside the authenticated frame. */
export function useCurrentUser(): User {
  const { data } = useSession();
  if (!data) throw new Error('useCurrentUser() used outside the signed-in app frame');
  return data;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginRequest) => call(authApi.login, { body }),
    onSuccess: ({ user }) => {
      clearSignedOutNotice();
      forgetSessionData(queryClient);
      queryClient.setQueryData(queryKeys.me(), user);
    },
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(authApi.logout),
    onSettled: () => {
      forgetSessionData(queryClient);
      queryClient.setQueryData(queryKeys.me(), null);
    },
  });
}
