import type Database from 'better-sqlite3';
import type { Db } from './database';

type Runner = Database.Transaction<(work: () => unknown) => unknown>;
const runners = new WeakMap<Db, Runner>();

/**
 * Runs `work` in one IMMEDIATE transaction (a savepoint inside another), through one
 * better-sqlite3 transaction function per database. `db.transaction(fn)` builds a new wrapper
 * with its deferred/immediate/exclusive variants on every call: about 5 KB for each claim and
 * each submit of the review hot path, which the young-generation collections then paid for.
 */
export function immediateTransaction<T>(db: Db, work: () => T): T {
  let runner = runners.get(db);
  if (runner === undefined) {
    runner = db.transaction((run: () => unknown) => run());
    runners.set(db, runner);
  }
  return runner.immediate(work) as T;
}
