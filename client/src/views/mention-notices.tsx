import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ItemComment } from '@shared/api/item-discussion';
import { queryKeys } from '../api/query-keys';

/**
 * Comments that mentioned this user while signed in, pushed only to their sockets
 * (`comment.mentioned`), each a link to its item until dismissed. Never fetched: the
 * socket fills the cache (api/socket.ts).
 */
export function MentionNotices() {
  const queryClient = useQueryClient();
  const { data: mentions = [] } = useQuery<ItemComment[]>({ queryKey: queryKeys.mentions(), queryFn: () => [], staleTime: Infinity, gcTime: Infinity });
  if (mentions.length === 0) return null;
  const dismiss = (id: number) => queryClient.setQueryData<ItemComment[]>(queryKeys.mentions(), (old = []) => old.filter((c) => c.id !== id));
  return (
    <ul className="mention-notices" role="status" aria-label="Mentions" data-testid="mention-notices">
      {mentions.map((comment) => (
        <li key={comment.id}>
          <Link to={`/items/${comment.item_id}`} onClick={() => dismiss(comment.id)}>
            {comment.author.username} mentioned you on item #{comment.item_id}
          </Link>{' '}
          <button type="button" className="small" aria-label={`Dismiss the mention on item #${comment.item_id}`} onClick={() => dismiss(comment.id)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
