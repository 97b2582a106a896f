import { useHotkeys } from '../../keyboard/use-hotkeys';

type CursorPagerProps = {
  /** Which page this is, counted as the pager turned (1 without a cursor). */
  page: number;
  pageSize: number;
  /** Rows on this page. */
  shown: number;
  total: number;
  nextCursor: string | null;
  prevCursor: string | null;
  onTurn: (turn: { cursor: string; page: number }) => void;
};

/**
 * "26–50 of 312" with previous/next buttons that follow the list's cursors; ← and → turn too.
 * Going back to page 1 drops the cursor, so the first page's URL is the plain one.
 */
export function CursorPager({ page, pageSize, shown, total, nextCursor, prevCursor, onTurn }: CursorPagerProps) {
  const previous = () => {
    if (prevCursor !== null) onTurn({ cursor: page <= 2 ? '' : prevCursor, page: Math.max(1, page - 1) });
  };
  const next = () => {
    if (nextCursor !== null) onTurn({ cursor: nextCursor, page: page + 1 });
  };
  useHotkeys({ ArrowLeft: previous, ArrowRight: next });
  const first = shown === 0 ? 0 : (page - 1) * pageSize + 1;
  return (
    <nav className="pager" aria-label="Pages">
      <span className="muted" data-testid="pager-range">
        {first}–{first === 0 ? 0 : first + shown - 1} of {total.toLocaleString('en-US')}
      </span>
      <button type="button" onClick={previous} disabled={prevCursor === null}>
        ‹ Previous
      </button>
      <span>Page {page}</span>
      <button type="button" onClick={next} disabled={nextCursor === null}>
        Next ›
      </button>
    </nav>
  );
}
