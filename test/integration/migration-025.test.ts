import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../db/database';

/** Migration 025 drops the status index that duplicated the queue index; status queries still use an index. */
describe('migration 025', () => {
  it('leaves one index over item status, which the status queries use', () => {
    const db = openDatabase(':memory:');
    migrate(db);
    const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'hqa_items' AND sql LIKE '%(status%'").all() as { name: string }[]).map((r) => r.name);
    expect(indexes.sort()).toEqual(['hqa_items_queue', 'hqa_items_queue_mismatch']);
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan("SELECT COUNT(*) FROM hqa_items WHERE status = 'pending'")).toMatch(/USING COVERING INDEX hqa_items_queue/);
    expect(plan("SELECT id FROM hqa_items WHERE status = 'in_review' ORDER BY id LIMIT 1")).toMatch(/USING COVERING INDEX hqa_items_queue/);
    db.close();
  });
});
