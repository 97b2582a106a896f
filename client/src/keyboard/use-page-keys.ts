import type { RefObject } from 'react';
import { pageCount } from '../ui/pager';
import { useHotkeys } from './use-hotkeys';

type PageKeysOptions = {
  page: number;
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** The list's search field, focused by `/`; no `/` key without one. */
  searchInput?: RefObject<HTMLInputElement | null>;
};

/**
 * ← and → turn the pages of a paged list. Returns the page turn, which ignores pages outside
 * the list, for buttons such as "Go to the first page".
 */
export function usePageKeys({ page, total, pageSize, onPage, searchInput }: PageKeysOptions): (page: number) => void {
  const pages = pageCount(total, pageSize);
  const goToPage = (next: number) => {
    if (next >= 1 && next <= pages) onPage(next);
  };
  useHotkeys({
    ...(searchInput && { '/': () => searchInput.current?.focus() }),
    ArrowLeft: () => goToPage(page - 1),
    ArrowRight: () => goToPage(page + 1),
  });
  return goToPage;
}
