import { useEffect } from 'react';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { connectSocket, feedQueryCache, type PresenceUsers } from './socket';
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
    return () => {
      detach();
      socket.disconnect();
    };
  }, [queryClient]);
}

/** Who is online, as last pushed by the server (empty until the first push). */
export function usePresence(): PresenceUsers {
  const { data } = useQuery<PresenceUsers>({ queryKey: queryKeys.presence(), queryFn: skipToken, staleTime: Infinity });
  return data ?? [];
}
