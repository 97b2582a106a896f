import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createContext, runInContext } from 'node:vm';
import type compromise from 'compromise';

/**
 * compromise, loaded into a JavaScript realm of its own (a `vm` context): the one door to it.
 *
 * Loading its lexicon adds properties to fresh objects under thousands of different first names,
 * which fills V8's list of shapes that grow out of `{}` (1,536 at most, per realm). Once it is
 * full, every object the server builds from `{}` with a name not already listed gets a new shape
 * of its own, for example better-sqlite3's `{ changes, lastInsertRowid }` on every write, and
 * those shapes outlived their objects: about 2 MB promoted per young-generation collection on the
 * review hot path, each collection a pause of 5-20 ms (bench/review.ts). In its own realm its
 * shapes grow out of that realm's `{}`. test/integration/object-shapes.test.ts checks the
 * server's realm keeps room.
 *
 * Its UMD build (the package's `require` entry) sets `nlp` on the realm's global.
 */
const require = createRequire(import.meta.url);

let loaded: typeof compromise | null = null;

/**
 * compromise's `nlp`, its realm made at the first call: loading it is ~0.4 s of CPU (~1.3 s
 * under tsx), which a server or a CLI command that never phrases a question (a review, an
 * import, an export) need not pay at its start.
 */
export function nlp(text: string): ReturnType<typeof compromise> {
  loaded ??= load();
  return loaded(text);
}

function load(): typeof compromise {
  const file = require.resolve('compromise');
  const realm = createContext({ console });
  // It reads its debug switches from `process.env` in Node and from `self.env` in a browser: this
  // realm has neither process nor window, so `self` is the realm's own global (no switches set).
  runInContext('globalThis.self = globalThis;', realm);
  runInContext(readFileSync(file, 'utf8'), realm, { filename: file });
  const made = (realm as { nlp?: typeof compromise }).nlp;
  if (made === undefined) throw new Error(`compromise (${file}) did not define nlp in its realm: is it still a UMD build?`);
  return made;
}
