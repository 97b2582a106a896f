import fs from 'node:fs';
import { URL } from 'node:url';

/**
 * The client's floor plan as ESLint rules. A page (`client/src/features/<page>/`) imports no
 * other page: what two pages share lives in `views/` (record views), `api/` (fetch hooks) or
 * `ui/` (generic parts), and those import no page. Imports are relative, so a page is
 * recognised by its folder name after any run of `../` — every page folder is read from disk,
 * so a new page is covered without an edit here.
 */

const FEATURES = new URL('./src/features/', import.meta.url);

/** The page folders, e.g. `review`, `pool`. */
export const PAGES = fs
  .readdirSync(FEATURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

// Only syntax characters are escaped: ESLint compiles the pattern with the `u` flag, where `\-`
// (a page folder such as `chart-types`) is an invalid escape.
const alternatives = (names) => names.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');

/** A relative import that climbs out of a page and into page `name` (or `features/name`). */
const intoPages = (names) => `^(\\.\\./)+(features/)?(${alternatives(names)})(/|$)`;

/** shared/ is reached by its alias, never by climbing out of client/ (tsconfig.json `paths`). */
const sharedByAlias = { regex: '^(\\.\\./)+shared/', message: 'Import shared/ as @shared/... (tsconfig.json paths).' };

/** The rule with the shared pattern and `patterns`: a later block's rule replaces an earlier one's. */
const restricted = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns: [sharedByAlias, ...patterns] }] });

export const clientBoundaries = [
  { files: ['client/src/**/*.{ts,tsx}'], rules: restricted() },
  ...PAGES.map((page) => ({
    files: [`client/src/features/${page}/**/*.{ts,tsx}`],
    rules: restricted({
      regex: intoPages(PAGES.filter((other) => other !== page)),
      message: `A page imports no other page: move what ${page}/ shares to client/src/views/, api/ or ui/.`,
    }),
  })),
  {
    // app/ mounts the pages; everything else is beneath them. Tests may render a view inside
    // the pages that show it; the code itself never imports one.
    files: ['client/src/{api,auth,keyboard,ui,views}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    rules: restricted({ regex: '^(\\.\\./)+features/', message: 'Shared client code imports no page; the page imports it.' }),
  },
];
