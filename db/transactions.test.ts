import { describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { afterCommit, immediateTransaction, rolledBack } from './transactions';

describe('immediateTransaction', () => {
  it('commits the work, rolls all of it back on a throw, and nests as a savepoint', () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (v INTEGER)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const values = () => (db.prepare('SELECT v FROM t ORDER BY v').all() as { v: number }[]).map((r) => r.v);
    expect(immediateTransaction(db, () => insert.run(1).changes)).toBe(1);
    expect(() =>
      immediateTransaction(db, () => {
        insert.run(2);
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(values()).toEqual([1]);
    immediateTransaction(db, () => {
      insert.run(3);
      // The inner one fails alone: its savepoint is rolled back, the outer work stays.
      expect(() =>
        immediateTransaction(db, () => {
          insert.run(4);
          throw new Error('inner');
        }),
      ).toThrow('inner');
      expect(db.inTransaction).toBe(true);
    });
    expect(values()).toEqual([1, 3]);
    expect(db.inTransaction).toBe(false);
    db.close();
  });
});

describe('rolledBack', () => {
  it('undoes what the work wrote, across awaits, whether it returned or threw, and refuses to nest', async () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (v INTEGER)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const count = () => (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;
    const seen = await rolledBack(db, async () => {
      insert.run(1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      // A committing transaction inside is a savepoint of the one rolled back.
      immediateTransaction(db, () => insert.run(2));
      return count();
    });
    expect(seen).toBe(2);
    expect(count()).toBe(0);
    await expect(
      rolledBack(db, async () => {
        insert.run(3);
        await Promise.resolve();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(count()).toBe(0);
    expect(db.inTransaction).toBe(false);
    db.exec('BEGIN');
    await expect(rolledBack(db, async () => 1)).rejects.toThrow('already in a transaction');
    db.exec('ROLLBACK');
    db.close();
  });
});

describe('afterCommit', () => {
  it('runs once the outermost transaction committed, in order, and never for work rolled back', () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (v INTEGER)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const count = () => (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;
    const ran: string[] = [];
    immediateTransaction(db, () => {
      insert.run(1);
      afterCommit(db, () => ran.push(`outer saw ${count()} rows, in a transaction: ${db.inTransaction}`));
      immediateTransaction(db, () => {
        insert.run(2);
        afterCommit(db, () => ran.push('savepoint kept'));
      });
      expect(() =>
        immediateTransaction(db, () => {
          afterCommit(db, () => ran.push('savepoint rolled back'));
          throw new Error('inner');
        }),
      ).toThrow('inner');
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['outer saw 2 rows, in a transaction: false', 'savepoint kept']);

    ran.length = 0;
    expect(() =>
      immediateTransaction(db, () => {
        afterCommit(db, () => ran.push('rolled back'));
        throw new Error('refused');
      }),
    ).toThrow('refused');
    afterCommit(db, () => ran.push('no transaction: at once'));
    expect(ran).toEqual(['no transaction: at once']);
    db.close();
  });

  it('refuses inside a transaction it cannot see commit, and drops what a rolled-back run queued', async () => {
    const db = openDatabase(':memory:');
    const ran: string[] = [];
    expect(() => db.transaction(() => afterCommit(db, () => ran.push('bare')))()).toThrow('not begun by immediateTransaction');
    expect(() => db.transaction(() => immediateTransaction(db, () => afterCommit(db, () => ran.push('nested in bare')))).immediate()).toThrow(
      'not begun by immediateTransaction',
    );
    await rolledBack(db, async () => {
      immediateTransaction(db, () => afterCommit(db, () => ran.push('warm-up')));
      afterCommit(db, () => ran.push('warm-up, outside'));
    });
    immediateTransaction(db, () => undefined);
    expect(ran).toEqual([]);
    db.close();
  });
});
