import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import { DomainEvents } from './event-bus';

function setUp(): { db: Db; events: DomainEvents; ran: string[]; rows: () => number[] } {
  const db = openDatabase(':memory:');
  db.exec('CREATE TABLE t (v INTEGER)');
  const ran: string[] = [];
  const events = new DomainEvents(db, pino({ level: 'silent' }));
  // An in-transaction subscriber writes with the event's write, as the audit log does.
  events.on('assignment.changed', 'in_transaction', 'row', (e) => db.prepare('INSERT INTO t (v) VALUES (?)').run(e.items));
  events.on('assignment.changed', 'after_commit', 'outside', (e) => ran.push(`told ${e.items}, committed: ${!db.inTransaction}`));
  const rows = () => (db.prepare('SELECT v FROM t ORDER BY v').all() as { v: number }[]).map((r) => r.v);
  return { db, events, ran, rows };
}

describe('domain events', () => {
  it('run in-transaction subscribers inside the write and the others after it commits', () => {
    const { db, events, ran, rows } = setUp();
    immediateTransaction(db, () => {
      events.emit('assignment.changed', { items: 1 });
      expect(rows()).toEqual([1]);
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['told 1, committed: true']);
    db.close();
  });

  it('dispatch nothing of a write that rolls back: its subscribers’ rows go with it, nobody is told', () => {
    const { db, events, ran, rows } = setUp();
    expect(() =>
      immediateTransaction(db, () => {
        events.emit('assignment.changed', { items: 2 });
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(rows()).toEqual([]);
    expect(ran).toEqual([]);
    db.close();
  });

  it('make an event emitted outside a transaction a write of its own', () => {
    const { db, events, ran, rows } = setUp();
    events.emit('assignment.changed', { items: 3 });
    expect(rows()).toEqual([3]);
    expect(ran).toEqual(['told 3, committed: true']);
    db.close();
  });

  it('undo the write when an in-transaction subscriber throws; log an after-commit one that throws and run the rest', () => {
    const { db, events, ran, rows } = setUp();
    const errors: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
    const logged = new DomainEvents(db, logger);
    logged.on('split.deleted', 'after_commit', 'fails', () => {
      throw new Error('socket gone');
    });
    logged.on('split.deleted', 'after_commit', 'still runs', (e) => ran.push(`deleted ${e.name}`));
    logged.emit('split.deleted', { name: 'x', actor_id: 1, deleted: { charts: 0, questions: 0, groups: 0 } });
    expect(ran).toEqual(['deleted x']);
    expect(errors.map((line) => JSON.parse(line) as { subscriber: string; msg: string }).map((e) => `${e.subscriber}: ${e.msg}`)).toEqual([
      'fails: a subscriber failed after its event committed',
    ]);

    events.on('lease.released', 'in_transaction', 'refuses', () => {
      throw new Error('audit refused');
    });
    expect(() =>
      immediateTransaction(db, () => {
        db.prepare('INSERT INTO t (v) VALUES (9)').run();
        events.emit('lease.released', { item_id: 9 });
      }),
    ).toThrow('audit refused');
    expect(rows()).toEqual([]);
    expect(() => events.on('assignment.changed', 'after_commit', 'outside', () => undefined)).toThrow('already subscribes');
    db.close();
  });
});
