import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { itemDiscussionApi, type EditItemRequest, type ItemComment, type ItemCommentsResponseSchema } from '@shared/api/item-discussion';
import type { z } from 'zod';
import { call } from './http';
import { queryKeys } from './query-keys';

type ItemCommentsResponse = z.infer<typeof ItemCommentsResponseSchema>;

/** Adds a comment to the cached thread once, whether it came back from the POST or was pushed first. */
export function addComment(old: ItemCommentsResponse | undefined, comment: ItemComment): ItemCommentsResponse | undefined {
  if (!old || old.comments.some((c) => c.id === comment.id)) return old;
  return { comments: [...old.comments, comment] };
}

/** An item's thread, oldest first; new comments arrive over the socket (`comment.created`). */
export function useItemComments(itemId: number) {
  return useQuery({ queryKey: queryKeys.items.comments(itemId), queryFn: () => call(itemDiscussionApi.comments, { params: { id: itemId } }) });
}

export function usePostComment(itemId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => call(itemDiscussionApi.postComment, { params: { id: itemId }, body: { body } }),
    onSuccess: ({ comment }) => queryClient.setQueryData<ItemCommentsResponse>(queryKeys.items.comments(itemId), (old) => addComment(old, comment)),
  });
}

/** Every curator edit of an item, oldest first; `null` fetches nothing. */
export function useItemEdits(itemId: number | null) {
  return useQuery({
    queryKey: queryKeys.items.edits(itemId ?? 0),
    queryFn: itemId === null ? skipToken : () => call(itemDiscussionApi.edits, { params: { id: itemId } }),
  });
}

/** A curator's direct edit: the item comes back verified again, and its history grows by one. */
export function useEditItem(itemId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditItemRequest) => call(itemDiscussionApi.edit, { params: { id: itemId }, body }),
    onSuccess: ({ item }) => {
      queryClient.setQueryData(queryKeys.items.detail(itemId), { item });
      void queryClient.invalidateQueries({ queryKey: queryKeys.items.edits(itemId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.items.lists() });
    },
  });
}
