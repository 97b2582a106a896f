import { skipToken, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  NextResponseSchema,
  QueueResponseSchema,
  RenewResponseSchema,
  SubmitReviewResponseSchema,
  UndoResponseSchema,
  type QueueFilters,
  type ReviewTask,
  type SubmitReviewRequest,
} from '@shared/api/review';
import { apiGet, apiPost } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import type { ExpiredLease } from '../../api/socket';

const ReleaseResponseSchema = z.object({ ok: z.literal(true) });

export type SubmitResult = z.infer<typeof SubmitReviewResponseSchema>;

/** The review endpoints the review session calls; an interface so the session is not tied to fetch. */
export interface ReviewApi {
  next(filters: QueueFilters, excludeItemIds: number[]): Promise<ReviewTask | null>;
  renew(itemId: number): Promise<string>;
  release(itemId: number): Promise<void>;
  submit(itemId: number, body: SubmitReviewRequest): Promise<SubmitResult>;
  undo(reviewId: number): Promise<ReviewTask>;
}

export const reviewApi: ReviewApi = {
  next: async (filters, excludeItemIds) =>
    (await apiPost('/api/review/next', NextResponseSchema, { ...filters, exclude_item_ids: excludeItemIds })).task,
  renew: async (itemId) => (await apiPost(`/api/review/leases/${itemId}/renew`, RenewResponseSchema)).lease_expires_at,
  release: async (itemId) => {
    await apiPost(`/api/review/leases/${itemId}/release`, ReleaseResponseSchema);
  },
  submit: (itemId, body) => apiPost(`/api/review/items/${itemId}`, SubmitReviewResponseSchema, body),
  undo: async (reviewId) => (await apiPost(`/api/review/reviews/${reviewId}/undo`, UndoResponseSchema)).task,
};

/** Queue size for this reviewer and counts per status; kept fresh by `queue.changed` pushes. */
export function useQueue() {
  return useQuery({
    queryKey: queryKeys.review.queue(),
    queryFn: () => apiGet('/api/review/queue', QueueResponseSchema),
  });
}

/** Leases of this user the server reported expired (pushed only, never fetched). */
export function useExpiredLeases(): ExpiredLease[] {
  const { data } = useQuery<ExpiredLease[]>({ queryKey: queryKeys.review.expiredLeases(), queryFn: skipToken, staleTime: Infinity });
  return data ?? [];
}
