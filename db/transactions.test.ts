import { describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { immediateTransaction, rolledBack } from './transactions';

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
