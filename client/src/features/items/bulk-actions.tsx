import { useEffect, useRef, useState } from 'react';
import type { ItemFilter } from '@shared/api/items';
import { useRequeue, useRequeueFilter } from '../../api/items-api';
import { ActionError } from '../../ui/error-messages';

type BulkActionsProps = {
  /** Items checked on this page (or pages before it). */
  checked: ReadonlySet<number>;
  /** The list's filter and how many items it matches, for "Re-queue all 1,234 matching…"; null without a filter. */
  filter: { filter: ItemFilter; total: number } | null;
  onDone: () => void;
};

const count = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'item' : 'items'}`;

/**
 * Curators' bulk re-queue, on the checked items or on every item the filter matches, after a
 * confirmation that states the count: re-queueing retracts reviews. Enter confirms (the
 * confirm button has focus), Escape goes back.
 */
export function BulkActions({ checked, filter, onDone }: BulkActionsProps) {
  const requeueChecked = useRequeue();
  const requeueFilter = useRequeueFilter();
  const [confirming, setConfirming] = useState<'checked' | 'filter' | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  const selected = checked.size;
  const target = confirming === 'checked' ? selected : (filter?.total ?? 0);
  const pending = requeueChecked.isPending || requeueFilter.isPending;
  const error = requeueChecked.error ?? requeueFilter.error;
  if (selected === 0 && filter === null && !result && !error) return null;

  const done = ({ requeued }: { requeued: number }) => {
    setResult(`${count(requeued)} re-queued.`);
    setConfirming(null);
    onDone();
  };
  const confirm = () => {
    if (confirming === 'checked') requeueChecked.mutate([...checked], { onSuccess: done });
    else if (confirming === 'filter' && filter) requeueFilter.mutate(filter.filter, { onSuccess: done });
  };
  const ask = (what: 'checked' | 'filter') => {
    setResult(null);
    setConfirming(what);
  };

  return (
    <div className="bulk-bar" role="region" aria-label="Bulk actions" data-testid="bulk-bar">
      {confirming ? (
        <div
          role="alertdialog"
          aria-label="Confirm re-queue"
          aria-describedby="bulk-confirm-text"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              setConfirming(null);
            }
          }}
        >
          <span id="bulk-confirm-text">
            <strong>Re-queue {count(target)}?</strong> Their reviews are kept but retracted.
          </span>{' '}
          <button ref={confirmButton} type="button" className="primary" disabled={pending} onClick={confirm}>
            Confirm re-queue
          </button>
          <button type="button" onClick={() => setConfirming(null)}>
            Cancel
          </button>
        </div>
      ) : (
        <>
          {selected > 0 && (
            <>
              <span>
                <strong>{selected}</strong> selected
              </span>
              <button type="button" onClick={() => ask('checked')}>
                Re-queue…
              </button>
              <button type="button" className="link-button" onClick={onDone}>
                Clear selection
              </button>
            </>
          )}
          {selected === 0 && filter !== null && filter.total > 0 && (
            <button type="button" onClick={() => ask('filter')}>
              Re-queue all {count(filter.total)} matching…
            </button>
          )}
        </>
      )}
      {result && !confirming && (
        <span className="ok" role="status">
          {result}
        </span>
      )}
      {error && <ActionError error={error} />}
    </div>
  );
}
