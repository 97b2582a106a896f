import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { itemsApi, type CreateItemRequest, type ItemFilter, type ItemListQuery } from '@shared/api/items';
import { reviewApi } from '@shared/api/review';
import { call } from './http';
import { queryKeys } from './query-keys';

export function useItems(query: ItemListQuery) {
  return useQuery({
    queryKey: queryKeys.items.list(query),
    queryFn: () => call(itemsApi.list, { query }),
    placeholderData: keepPreviousData,
  });
}

/** One item with its verifier result; `null` (an id that cannot exist) fetches nothing. */
export function useItem(id: number | null) {
  return useQuery({
    queryKey: queryKeys.items.detail(id ?? 0),
    queryFn: id === null ? skipToken : () => call(itemsApi.get, { params: { id } }),
  });
}

/** A hand-written item: stored, verified and flagged by the server like a generated one. */
export function useCreateItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateItemRequest) => call(itemsApi.create, { body }),
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
    queryFn: id === null ? skipToken : () => call(reviewApi.history, { params: { id } }),
  });
}

/** Sends items back to the review queue; their reviews are kept, retracted. */
export function useRequeue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (itemIds: number[]) => call(reviewApi.requeue, { body: { item_ids: itemIds } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.items.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.review.all() });
    },
  });
}

/** Sends every item a filter matches back to the review queue (curators); one transaction on the server. */
export function useRequeueFilter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (filter: ItemFilter) => call(itemsApi.requeue, { body: { filter } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.items.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.review.all() });
    },
  });
}
