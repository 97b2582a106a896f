import type { RequeueReason } from '@shared/domain/generation';

/** What each system reason for sending an item back to review tells its reader. */
export const REQUEUE_REASON_TEXT: Record<RequeueReason, string> = {
  table_changed: 'Sent back to review: the chart’s data table changed on re-import',
};

/**
 * Why the system sent the item back to review, or nothing when it did not (or the item has been
 * decided since). Earlier reviews were judged against data that is no longer the chart's.
 */
export function RequeueNotice({ reason }: { reason: RequeueReason | null }) {
  if (reason === null) return null;
  return (
    <p className="notice notice-warning small" role="status" data-testid="requeue-reason" data-reason={reason}>
      {REQUEUE_REASON_TEXT[reason]}
    </p>
  );
}
