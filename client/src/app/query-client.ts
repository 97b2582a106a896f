import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/http';
import { queryKeys } from '../api/query-keys';
import { setSignedOutNotice } from '../auth/signed-out-notice';

const MAX_RETRIES = 2;

/**
 * The app's query client. A 401 from any request means the session is gone: clearing the
 * cached user makes the signed-in frame redirect to the login page.
 */
export function createQueryClient(): QueryClient {
  const onError = (error: unknown) => {
    if (!isApiError(error) || error.status !== 401) return;
    if (error.code === 'session_cookie_conflict') setSignedOutNotice(error.message);
    queryClient.setQueryData(queryKeys.me(), null);
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Client errors (4xx) will not change on retry; network and server errors may.
        retry: (failures, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && failures < MAX_RETRIES,
      },
    },
  });
  return queryClient;
}
