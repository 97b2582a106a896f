import { useEffect, useRef } from 'react';

export type HotkeyMap = Partial<Record<string, (event: KeyboardEvent) => void>>;

/** True when a key press belongs to a text field, so single-letter shortcuts must not fire. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/**
 * Binds single-key shortcuts (by `KeyboardEvent.key`) on the window while the component is
 * mounted. Ignored while typing in a field and when a modifier is held.
 */
export function useHotkeys(keys: HotkeyMap): void {
  const keysRef = useRef(keys);
  useEffect(() => {
    keysRef.current = keys;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      // Enter on a focused link or button belongs to that control.
      if (event.key === 'Enter' && (event.target instanceof HTMLAnchorElement || event.target instanceof HTMLButtonElement)) return;
      const handler = keysRef.current[event.key];
      if (!handler) return;
      event.preventDefault();
      handler(event);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
