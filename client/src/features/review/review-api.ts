import { skipToken, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  // The descriptors; `reviewApi` below is the session's view of them.
  reviewApi as reviewEndpoints,
  type SubmitReviewResponseSchema,
  type QueueFilters,
  type ReviewTask,
  type SubmitReviewRequest,
} from '@shared/api/review';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import type { ExpiredLease, OwnReview } from '../../api/socket';

export type SubmitResult = z.infer<typeof SubmitReviewResponseSchema>;

/** The review endpoints the review session calls; an interface so the session is not tied to fetch. */
export interface ReviewApi {
  next(filters: QueueFilters, excludeItemIds: number[]): Promise<ReviewTask | null>;
  renew(itemId: number): Promise<string>;
  /** Gives the task's item back: only the lease it was served under (`lease_token`), never one made since. */
  release(task: ReviewTask): Promise<void>;
  submit(itemId: number, body: SubmitReviewRequest): Promise<SubmitResult>;
  undo(reviewId: number): Promise<ReviewTask>;
}

export const reviewApi: ReviewApi = {
  next: async (filters, excludeItemIds) =>
    (await call(reviewEndpoints.next, { body: { ...filters, exclude_item_ids: excludeItemIds } })).task,
  renew: async (itemId) => (await call(reviewEndpoints.renew, { params: { id: itemId } })).lease_expires_at,
  release: async (task) => {
    await call(reviewEndpoints.release, { params: { id: task.item.id }, body: { lease_token: task.lease_token } });
  },
  submit: (itemId, body) => call(reviewEndpoints.submit, { params: { id: itemId }, body }),
  undo: async (reviewId) => (await call(reviewEndpoints.undo, { params: { id: reviewId } })).task,
};

/** Queue size for this reviewer and counts per status; kept fresh by `queue.changed` pushes. */
export function useQueue() {
  return useQuery({
    queryKey: queryKeys.review.queue(),
    queryFn: () => call(reviewEndpoints.queue),
  });
}

/** This user's reviews the server stored, from any of their tabs (pushed only, never fetched). */
export function useOwnReviews(): OwnReview[] {
  const { data } = useQuery<OwnReview[]>({ queryKey: queryKeys.review.ownReviews(), queryFn: skipToken, staleTime: Infinity });
  return data ?? [];
}

/** Leases of this user the server reported expired (pushed only, never fetched). */
export function useExpiredLeases(): ExpiredLease[] {
  const { data } = useQuery<ExpiredLease[]>({ queryKey: queryKeys.review.expiredLeases(), queryFn: skipToken, staleTime: Infinity });
  return data ?? [];
}
