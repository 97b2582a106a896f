import { describe, expect, it, vi } from 'vitest';
import { openDatabase, migrate } from '../db/database';
import { listCharts } from './charts/chart-queries';
import { ownStats } from './review/review-stats';
import { getAccount, insertUser } from './users/user-queries';

/** Query modules compile each statement once per database (db/statements.ts, preparedOnce). */

function freshDb() {
  const db = openDatabase(':memory:');
  migrate(db);
  return db;
}

const PAGE = { page: 1, page_size: 20 };

describe('statements prepared once per database', () => {
  it('a fixed query compiles on its first call only', () => {
    const db = freshDb();
    const user = insertUser(db, 'ada', 'reviewer', 'hash');
    if (!user) throw new Error('insertUser returned null on a fresh database');
    const prepare = vi.spyOn(db, 'prepare');
    getAccount(db, user.id);
    const afterFirst = prepare.mock.calls.length;
    expect(getAccount(db, user.id)?.username).toBe('ada');
    expect(prepare.mock.calls.length).toBe(afterFirst);
    ownStats(db, user.id);
    const afterStats = prepare.mock.calls.length;
    ownStats(db, user.id);
    expect(prepare.mock.calls.length).toBe(afterStats);
    db.close();
  });

  it('a query built from filters compiles once per combination of filters', () => {
    const db = freshDb();
    const prepare = vi.spyOn(db, 'prepare');
    listCharts(db, { ...PAGE, split: 'test' });
    expect(prepare).toHaveBeenCalledTimes(2); // the count and the page
    listCharts(db, { ...PAGE, split: 'val', page: 3 });
    expect(prepare).toHaveBeenCalledTimes(2);
    listCharts(db, { ...PAGE, q: 'gdp' });
    expect(prepare).toHaveBeenCalledTimes(4);
    db.close();
  });
});
