import { useState } from 'react';
import { useHotkeys } from './use-hotkeys';

/**
 * Keyboard selection over a list of `count` rows: j / ArrowDown and k / ArrowUp move it,
 * Enter opens the selected row. Key the owning component by the list's identity (page,
 * filters) so the selection starts fresh for a new list.
 */
export function useListNavigation(count: number, onOpen: (index: number) => void) {
  const [selected, setSelected] = useState<number | null>(null);
  const current = selected !== null && selected < count ? selected : null;

  const move = (delta: number) => {
    if (count === 0) return;
    setSelected(current === null ? (delta > 0 ? 0 : count - 1) : Math.min(count - 1, Math.max(0, current + delta)));
  };
  useHotkeys({
    j: () => move(1),
    ArrowDown: () => move(1),
    k: () => move(-1),
    ArrowUp: () => move(-1),
    Enter: () => {
      if (current !== null) onOpen(current);
    },
  });
  return { selected: current, setSelected };
}
