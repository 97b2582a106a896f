import { useNow } from '../../ui/use-now';
import type { LastDecision } from './review-session';
import { Key } from './review-form';

/** "Accepted item #12 — Undo (u) 27 s": the window to take the last decision back, counting down. */
export function UndoToast({ last, busy, onUndo, onDismiss }: { last: LastDecision; busy: boolean; onUndo: () => void; onDismiss: () => void }) {
  const now = useNow(true, 500);
  const seconds = Math.ceil((last.undoUntil - now) / 1000);
  if (seconds <= 0) return null;
  return (
    <div className="toast" role="status" data-testid="undo-toast">
      <span>
        {last.decision === 'accept' ? 'Accepted' : 'Rejected'} item #{last.itemId}.
      </span>
      <button type="button" onClick={onUndo} disabled={busy}>
        Undo <Key name="undo" />
      </button>
      <span className="muted small" data-testid="undo-countdown">
        {seconds} s
      </span>
      <button type="button" className="link-button" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
