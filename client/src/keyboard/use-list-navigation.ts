import { useEffect, useRef, useState } from 'react';
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

/** The props of a table row in a navigable list: marked while selected; `onClick` selects and opens it. */
export function selectableRow(selected: boolean, onClick: () => void) {
  return { className: selected ? 'selected' : undefined, 'aria-selected': selected, onClick };
}

/**
 * `useListNavigation` over the rows themselves: Enter opens the selected row, and
 * `rowProps(index)` gives a row its selection mark and a click that selects and opens it.
 */
export function useNavigableRows<T>(rows: readonly T[], onOpen: (row: T) => void) {
  const open = (index: number) => {
    const row = rows[index];
    if (row !== undefined) onOpen(row);
  };
  const { selected, setSelected } = useListNavigation(rows.length, open);
  const rowProps = (index: number) =>
    selectableRow(index === selected, () => {
      setSelected(index);
      open(index);
    });
  return { selected, rowProps };
}

/** A ref for the selected row of a long list, which scrolls it into view as the selection moves. */
export function useSelectedRowRef(selected: number | null) {
  const selectedRow = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    selectedRow.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  return selectedRow;
}
