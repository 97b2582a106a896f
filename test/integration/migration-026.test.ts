import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../db/database';

/** Migration 026 indexes two lookups of every claim and queue count. */
describe('migration 026', () => {
  it("indexes whether a reviewer ever reviewed an item (retracted reviews too) and a caller's own items", () => {
    const db = openDatabase(':memory:');
    migrate(db);
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan("SELECT 1 FROM reviews r WHERE r.item_id = 1 AND r.reviewer_id = 2 AND (r.retract_reason IS NULL OR r.retract_reason != 'requeue')")).toMatch(
      /USING INDEX reviews_item_reviewer \(item_id=\? AND reviewer_id=\?\)/,
    );
    expect(plan("SELECT id FROM hqa_items i WHERE i.created_by = 3 AND i.status = 'pending'")).toMatch(/hqa_items_author|hqa_items_queue/);
    expect(plan('SELECT id FROM hqa_items i WHERE i.created_by = 3')).toMatch(/USING (COVERING )?INDEX hqa_items_author \(created_by=\?\)/);
    db.close();
  });
});
