/** Enough of the Web Storage API for the note this module keeps (sessionStorage in the browser). */
export type NoteStorage = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * Fetches every page's chunk once per tab and build, so that opening a page later is instant.
 * The server lets the browser keep those files for good (their names carry a hash of their
 * content), so after the first time a reload would only compile and run all of them again for
 * nothing: a fifth of the browser's work in a page load. `build` names the build (a hashed chunk's
 * URL): a tab open across an upgrade fetches the new pages.
 */
export function preloadPagesOnce(loads: readonly (() => Promise<unknown>)[], storage: () => NoteStorage | null, build: string): void {
  const key = `hqa.pages-preloaded:${build}`;
  try {
    const notes = storage();
    if (notes?.getItem(key)) return;
    notes?.setItem(key, '1');
  } catch {
    // Storage may be full, disabled or blocked: preloading once more is only work.
  }
  for (const load of loads) void load();
}
