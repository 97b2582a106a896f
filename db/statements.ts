import type Database from 'better-sqlite3';
import type { Db } from './database';

/**
 * How many distinct SQL texts one database keeps compiled. The fixed SQL of every query module
 * is a few hundred texts; the bound only matters for SQL built from filters or id lists, whose
 * variants could otherwise grow without end.
 */
export const MAX_CACHED_STATEMENTS = 1_000;

const caches = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * The statement for `sql` on this database, compiled on first use and reused after: better-sqlite3
 * compiles on every `prepare`, so a query module asks here instead. Keyed by the SQL text, so a
 * query built from filters (db/sql-filters.ts) reuses its statement whenever the same filters
 * recur. The least recently used text is dropped beyond MAX_CACHED_STATEMENTS.
 *
 * A statement is shared by every caller of the same text: don't leave a mode (`raw`, `pluck`,
 * `expand`) set on one whose text another caller also uses, and don't `iterate` it across an
 * `await`.
 */
export function statement(db: Db, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = new Map();
    caches.set(db, cache);
  }
  const cached = cache.get(sql);
  if (cached !== undefined) {
    // Re-inserting keeps the Map in least-recently-used order, so eviction drops a cold text.
    cache.delete(sql);
    cache.set(sql, cached);
    return cached;
  }
  const prepared = db.prepare(sql);
  if (cache.size >= MAX_CACHED_STATEMENTS) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(sql, prepared);
  return prepared;
}

/** How many statements this database keeps compiled (for tests of what start-up prepares). */
export function cachedStatementCount(db: Db): number {
  return caches.get(db)?.size ?? 0;
}
