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

/**
 * Runs `work` (which may await) inside one IMMEDIATE transaction and then rolls all of it back,
 * whatever `work` did or threw: for exercising code paths that write (a claim at start-up's
 * warm-up) without leaving a trace. Holding the write lock across awaits keeps every other
 * writer of this connection's file waiting, so `work` must be short; nothing else on this
 * connection may commit meanwhile (its writes become part of this transaction and are undone).
 */
export async function rolledBack<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (db.inTransaction) throw new Error('rolledBack: the connection is already in a transaction');
  db.prepare('BEGIN IMMEDIATE').run();
  try {
    return await work();
  } finally {
    if (db.inTransaction) db.prepare('ROLLBACK').run();
  }
}
