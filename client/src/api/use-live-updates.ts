import { useEffect } from 'react';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import type { User } from '@shared/api/auth';
import { connectSocket, feedQueryCache, type Presence } from './socket';
import { queryKeys } from './query-keys';

/**
 * Keeps one socket.io connection open while the signed-in app frame is mounted and lets it
 * feed the query cache. Mount it once, in the frame.
 */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const socket = connectSocket();
    const detach = feedQueryCache(socket, queryClient);
    // The server closes a socket when its session ends or the user's role changes. Ask who we
    // are now: signed out shows the login page (and unmounts this); still signed in reconnects
    // as the user is now, forgetting what was fetched under the old role.
    let unmounted = false;
    const onDisconnect = (reason: string) => {
      if (reason !== 'io server disconnect') return;
      const before = queryClient.getQueryData<User | null>(queryKeys.me());
      void queryClient.refetchQueries({ queryKey: queryKeys.me() }).then(() => {
        const now = queryClient.getQueryData<User | null>(queryKeys.me());
        if (!now || unmounted) return;
        if (before && (before.id !== now.id || before.role !== now.role)) {
          // Reset, not remove: the page on screen fetches again at once under the new role.
          void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.me()[0] });
        }
        socket.connect();
      });
    };
    socket.on('disconnect', onDisconnect);
    return () => {
      unmounted = true;
      socket.off('disconnect', onDisconnect);
      detach();
      socket.disconnect();
    };
  }, [queryClient]);
}

/** Who is online, as last pushed by the server (null until the first push). */
export function usePresence(): Presence | null {
  const { data } = useQuery<Presence>({ queryKey: queryKeys.presence(), queryFn: skipToken, staleTime: Infinity });
  return data ?? null;
}
