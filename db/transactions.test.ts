import { describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { immediateTransaction } from './transactions';

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
