import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { buildChart, buildQa, buildStoredItem, copyItem } from '../../test/support/factories';
import { setItemStatus, statusCounts } from './review-queries';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-status-counts-'));
  db = openAndMigrate(join(dir, 'hqa.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the kept counts must always equal: a count of every item. */
function countedByScan(): Record<string, number> {
  const counts: Record<string, number> = { pending: 0, in_review: 0, accepted: 0, rejected: 0, needs_adjudication: 0 };
  for (const row of db.prepare('SELECT status, COUNT(*) AS n FROM hqa_items GROUP BY status').all() as { status: string; n: number }[]) counts[row.status] = row.n;
  return counts;
}

describe('the queue counts per status', () => {
  it('follow every insert, status change and delete of an item, and a rolled-back one not at all', () => {
    expect(statusCounts(db)).toEqual(countedByScan());
    const chartId = buildChart(db);
    const qaId = buildQa(db, { chartId });
    const first = buildStoredItem(db, { qaId, chartId });
    const ids = [first, ...Array.from({ length: 5 }, () => copyItem(db, first, { proposalId: null, status: 'pending' }))];
    expect(statusCounts(db)).toMatchObject({ accepted: 1, pending: 5 });

    setItemStatus(db, ids[1]!, 'in_review');
    setItemStatus(db, ids[2]!, 'in_review');
    setItemStatus(db, ids[2]!, 'in_review');
    setItemStatus(db, ids[3]!, 'needs_adjudication');
    db.prepare("UPDATE hqa_items SET status = 'rejected' WHERE id IN (?, ?)").run(ids[4]!, ids[5]!);
    expect(() =>
      db.transaction(() => {
        setItemStatus(db, ids[1]!, 'accepted');
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(statusCounts(db)).toEqual({ pending: 0, in_review: 2, accepted: 1, rejected: 2, needs_adjudication: 1 });
    expect(statusCounts(db)).toEqual(countedByScan());

    db.prepare('DELETE FROM hqa_items WHERE id = ?').run(ids[4]!);
    expect(statusCounts(db)).toEqual({ pending: 0, in_review: 2, accepted: 1, rejected: 1, needs_adjudication: 1 });
    expect(statusCounts(db)).toEqual(countedByScan());
  });
});
