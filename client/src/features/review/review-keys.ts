import { useLayoutEffect, useRef } from 'react';
import { GROUP_ZOOM_KEYS } from '../../views/group-chart-zoom';

/** Every key of the review page, in the order the `?` overlay lists them. */
export const REVIEW_KEYS = {
  rationality: { key: '1', action: 'toggle rationality pass / fail' },
  correctness: { key: '2', action: 'toggle answer correctness pass / fail' },
  layout: { key: '3', action: 'toggle layout consistency pass / fail' },
  note: { key: 'n', action: 'write a note on the criterion last toggled' },
  accept: { key: 'a', action: 'accept and go to the next item (asks first when you failed a criterion, wrote feedback or a correction)' },
  reject: { key: 'r', action: 'reject (needs a failed criterion and feedback)' },
  skip: { key: 's', action: 'skip: give the item back, show the next' },
  feedback: { key: 'f', action: 'write feedback' },
  answer: { key: 'c', action: 'write a corrected answer' },
  question: { key: 'q', action: 'correct the question (starts from the original)' },
  complexity: { key: 'x', action: 'complexity 1 → 5 → none' },
  undo: { key: 'u', action: 'undo your last decision (within its window)' },
  submit: { key: 'Ctrl+Enter', action: 'submit the suggested decision, even while typing' },
  claimAgain: { key: 'l', action: 'after your lease ran out: claim the item again' },
  enlarge: { key: 'z', action: 'enlarge the charts (with the data table); Esc closes' },
  flip: { key: 't', action: 'toggle original / counterfactual in place (also in the enlarged view)' },
  guidelines: { key: 'g', action: 'show or hide the guidelines for the three criteria' },
  // Only inside an enlarged chart of a multi-chart item, where the page's keys (1–3 included) rest.
  charts: GROUP_ZOOM_KEYS,
  leave: { key: 'Esc', action: 'leave the field you are typing in; close this overlay' },
  help: { key: '?', action: 'show or hide this list' },
} as const;

export type ReviewKeyName = keyof typeof REVIEW_KEYS;

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'number', 'email', 'url', 'tel', 'password', '']);

/**
 * True when the key press belongs to a field being typed in. Toggles, radios and buttons are
 * not typing: the page's letters keep working while one of them has focus.
 */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(target.type);
}

/** What a key handler is told besides the key: whether the press came from a field. */
export type KeyContext = { typing: boolean; event: KeyboardEvent };

/**
 * A window keydown listener that always sees the latest `handle`. `handle` returns true when it
 * used the key, which then does nothing else (no typed letter, no scrolling). Both are set in
 * the commit itself (layout effects), not after the paint: a key pressed the moment a new item
 * or a question appears reaches the handler of what is on screen, never the one before it.
 */
export function useKeyHandler(handle: (key: string, context: KeyContext) => boolean): void {
  const handleRef = useRef(handle);
  useLayoutEffect(() => {
    handleRef.current = handle;
  });
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.isComposing) return;
      const chord = event.ctrlKey || event.metaKey ? `Ctrl+${event.key}` : event.key;
      if (handleRef.current(chord, { typing: isTextEntry(event.target), event })) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
