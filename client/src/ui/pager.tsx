type PagerProps = {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
};

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** "26–50 of 312" with previous/next page buttons. */
export function Pager({ page, pageSize, total, onPage }: PagerProps) {
  const pages = pageCount(total, pageSize);
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="pager" aria-label="Pages">
      <span className="muted" data-testid="pager-range">
        {first}–{last} of {total}
      </span>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        ‹ Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        Next ›
      </button>
    </nav>
  );
}

/** A page number from the URL beyond the list's end (it shrank, or the link was old). */
export function PastEndNotice({ onFirstPage }: { onFirstPage: () => void }) {
  return (
    <p className="empty">
      This page is past the end of the list.{' '}
      <button type="button" className="link-button" onClick={onFirstPage}>
        Go to the first page
      </button>
    </p>
  );
}
