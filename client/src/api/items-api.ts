import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ItemDetailResponseSchema,
  ItemListResponseSchema,
  type CreateItemRequest,
  type ItemListQuery,
} from '@shared/api/items';
import { ItemHistoryResponseSchema, RequeueResponseSchema } from '@shared/api/review';
import { apiGet, apiPost } from './http';
import { queryKeys } from './query-keys';

export function useItems(query: ItemListQuery) {
  return useQuery({
    queryKey: queryKeys.items.list(query),
    queryFn: () => apiGet('/api/items', ItemListResponseSchema, query),
    placeholderData: keepPreviousData,
  });
}

/** One item with its verifier result; `null` (an id that cannot exist) fetches nothing. */
export function useItem(id: number | null) {
  return useQuery({
    queryKey: queryKeys.items.detail(id ?? 0),
    queryFn: id === null ? skipToken : () => apiGet(`/api/items/${id}`, ItemDetailResponseSchema),
  });
}

/** A hand-written item: stored, verified and flagged by the server like a generated one. */
export function useCreateItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateItemRequest) => apiPost('/api/items', ItemDetailResponseSchema, body),
    onSuccess: ({ item }) => {
      queryClient.setQueryData(queryKeys.items.detail(item.id), { item });
      void queryClient.invalidateQueries({ queryKey: queryKeys.items.lists() });
    },
  });
}

/** Every review of an item (retracted ones too) and its answer history; curators only. */
export function useItemHistory(id: number | null) {
  return useQuery({
    queryKey: queryKeys.review.history(id ?? 0),
    queryFn: id === null ? skipToken : () => apiGet(`/api/review/items/${id}/history`, ItemHistoryResponseSchema),
  });
}

/** Sends items back to the review queue; their reviews are kept, retracted. */
export function useRequeue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (itemIds: number[]) => apiPost('/api/review/requeue', RequeueResponseSchema, { item_ids: itemIds }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.items.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.review.all() });
    },
  });
}
