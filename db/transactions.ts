import type Database from 'better-sqlite3';
import type { Db } from './database';

type Runner = Database.Transaction<(work: () => unknown) => unknown>;
const runners = new WeakMap<Db, Runner>();

/**
 * What waits for the open outermost transaction of a database to commit (`afterCommit`); absent
 * when none of ours is open. `discard`: the transaction is rolled back whatever happens
 * (`rolledBack`), so nothing queued ever runs.
 */
interface Outbox {
  readonly callbacks: (() => void)[];
  readonly discard: boolean;
}
const outboxes = new WeakMap<Db, Outbox>();

/**
 * Runs `work` in one IMMEDIATE transaction (a savepoint inside another), through one
 * better-sqlite3 transaction function per database. `db.transaction(fn)` builds a new wrapper
 * with its deferred/immediate/exclusive variants on every call: about 5 KB for each claim and
 * each submit of the review hot path, which the young-generation collections then paid for.
 *
 * What `work` queues with `afterCommit` runs once the outermost transaction commits; what a
 * savepoint queued is dropped with the savepoint when it rolls back.
 */
export function immediateTransaction<T>(db: Db, work: () => T): T {
  let runner = runners.get(db);
  if (runner === undefined) {
    runner = db.transaction((run: () => unknown) => run());
    runners.set(db, runner);
  }
  const open = outboxes.get(db);
  // Inside a transaction this module did not open (a bare `db.transaction`), nobody here learns
  // when it commits: no outbox, so `afterCommit` refuses rather than run before the commit.
  const outbox = open ?? (db.inTransaction ? null : { callbacks: [], discard: false });
  const mark = outbox?.callbacks.length ?? 0;
  if (outbox && !open) outboxes.set(db, outbox);
  let result: T;
  try {
    result = runner.immediate(work) as T;
  } catch (error) {
    if (outbox) outbox.callbacks.length = mark;
    if (outbox && !open) outboxes.delete(db);
    throw error;
  }
  if (outbox && !open) {
    outboxes.delete(db);
    for (const callback of outbox.callbacks) callback();
  }
  return result;
}

/**
 * Runs `callback` once the transaction open on `db` commits (never, if it rolls back); at once
 * when none is open. Throws inside a transaction `immediateTransaction` did not open: its
 * commit is nobody's to observe, and an after-effect must not run before it.
 */
export function afterCommit(db: Db, callback: () => void): void {
  const outbox = outboxes.get(db);
  if (outbox) {
    if (!outbox.discard) outbox.callbacks.push(callback);
    return;
  }
  if (db.inTransaction) throw new Error('afterCommit: the open transaction was not begun by immediateTransaction; its commit cannot be awaited');
  callback();
}

/**
 * Runs `work` (which may await) inside one IMMEDIATE transaction and then rolls all of it back,
 * whatever `work` did or threw: for exercising code paths that write (a claim at start-up's
 * warm-up) without leaving a trace. Holding the write lock across awaits keeps every other
 * writer of this connection's file waiting, so `work` must be short; nothing else on this
 * connection may commit meanwhile (its writes become part of this transaction and are undone).
 * After-effects queued meanwhile are dropped: what they would announce never happened.
 */
export async function rolledBack<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (db.inTransaction) throw new Error('rolledBack: the connection is already in a transaction');
  db.prepare('BEGIN IMMEDIATE').run();
  outboxes.set(db, { callbacks: [], discard: true });
  try {
    return await work();
  } finally {
    outboxes.delete(db);
    if (db.inTransaction) db.prepare('ROLLBACK').run();
  }
}
