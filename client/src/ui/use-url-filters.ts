import { useSearchParams } from 'react-router';

/**
 * A list's filters and page, kept in the URL so a view can be linked and survives a reload:
 * `read` parses them from the search params, `write` applies a change and gives the new ones.
 * `update(change, true)` replaces the history entry (a search typed letter by letter).
 */
export function useUrlFilters<F>(read: (params: URLSearchParams) => F, write: (current: F, change: Partial<F>) => URLSearchParams) {
  const [searchParams, setSearchParams] = useSearchParams();
  // Read the URL at the time of the change: a debounced search must not undo a filter set meanwhile.
  const update = (change: Partial<F>, replace = false) => setSearchParams((current) => write(read(current), change), { replace });
  return { filters: read(searchParams), searchParams, update };
}
