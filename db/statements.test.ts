import { describe, expect, it, vi } from 'vitest';
import { openDatabase } from './database';
import { MAX_CACHED_STATEMENTS, statement } from './statements';

function memoryDb() {
  const db = openDatabase(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
  return db;
}

describe('statement', () => {
  it('compiles a SQL text once per database and hands back the same statement after', () => {
    const db = memoryDb();
    const prepare = vi.spyOn(db, 'prepare');
    const first = statement(db, 'SELECT name FROM t WHERE id = ?');
    const second = statement(db, 'SELECT name FROM t WHERE id = ?');
    expect(second).toBe(first);
    expect(prepare).toHaveBeenCalledTimes(1);
    statement(db, 'INSERT INTO t (name) VALUES (?)').run('a');
    expect(statement(db, 'SELECT name FROM t WHERE id = ?').get(1)).toEqual({ name: 'a' });
    expect(prepare).toHaveBeenCalledTimes(2);
    db.close();
  });

  it('keeps one cache per database: the same text on another database is its own statement', () => {
    const a = memoryDb();
    const b = memoryDb();
    statement(a, 'INSERT INTO t (name) VALUES (?)').run('in a');
    expect(statement(b, 'SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 0 });
    expect(statement(a, 'SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 1 });
    a.close();
    b.close();
  });

  it('is bounded: beyond the limit the least recently used text is compiled again, a recent one is not', () => {
    const db = memoryDb();
    const hot = statement(db, 'SELECT 0 AS n');
    for (let i = 1; i < MAX_CACHED_STATEMENTS + 10; i += 1) {
      statement(db, `SELECT ${i} AS n`);
      if (i % 100 === 0) statement(db, 'SELECT 0 AS n');
    }
    const prepare = vi.spyOn(db, 'prepare');
    expect(statement(db, 'SELECT 0 AS n')).toBe(hot);
    expect(prepare).not.toHaveBeenCalled();
    statement(db, 'SELECT 1 AS n');
    expect(prepare).toHaveBeenCalledTimes(1);
    db.close();
  });
});
