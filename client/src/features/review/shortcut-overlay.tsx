import { useEffect, useRef } from 'react';
import { REVIEW_KEYS } from './review-keys';

/** Every key of the review page (`?`). Esc, `?` or the button closes it. */
export function ShortcutOverlay({ onClose }: { onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const previous = document.activeElement;
    closeButton.current?.focus();
    return () => {
      if (previous instanceof HTMLElement) previous.focus();
    };
  }, []);
  return (
    <div className="overlay-backdrop" onClick={onClose}>
      <div
        className="overlay"
        role="dialog"
        aria-modal="true"
        aria-labelledby="review-keys-heading"
        data-testid="review-keys-overlay"
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id="review-keys-heading">Keyboard</h2>
        <dl className="key-list">
          {Object.values(REVIEW_KEYS).map(({ key, action }) => (
            <div key={key}>
              <dt>
                <kbd>{key}</kbd>
              </dt>
              <dd>{action}</dd>
            </div>
          ))}
        </dl>
        <p className="muted small">Letters do nothing while you type in a field; Esc leaves the field first.</p>
        <button type="button" ref={closeButton} onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
