import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseAtVersion } from '../support/migrated-database';
import { migrate } from '../../db/database';
import { deleteLease, heldLeases, insertLease } from '../../server/review/review-queries';

/** Migration 024 gives every lease a token, those held at the upgrade included, so a release can name the lease it was issued for. */

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-m024-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 024 on a database made at 023', () => {
  it('gives the leases held at the upgrade a token each, which a release then names', () => {
    const db = databaseAtVersion(dir, 23);
    db.prepare("INSERT INTO users (id, username, role, password_hash) VALUES (1, 'ann', 'reviewer', 'x')").run();
    db.prepare(`INSERT INTO charts (id, split, imgname, title, chart_type, type_source, data_table, table_source, row_count, series_count, source_file, content_hash)
      VALUES (7, 'val', 'a.png', 'Revenue', 'vertical_bar', 'inferred', '{"columns":[]}', 'imported', 2, 1, 'tables/a.csv', 'h1')`).run();
    db.prepare("INSERT INTO factual_qas (id, chart_id, query, label, source, answer_kind) VALUES (100, 7, 'q', '1', 'human', 'number')").run();
    const insert = db.prepare(`INSERT INTO hqa_items (qa_id, chart_id, origin, assumption, question, answer, answer_type, rationale, affects_answer, program, verifier)
      VALUES (100, 7, 'human', 'Suppose x.', 'What is y?', '1', 'text', 'r', 1, 'p', '{}')`);
    const items = [Number(insert.run().lastInsertRowid), Number(insert.run().lastInsertRowid)];
    const until = '2999-01-01T00:00:00.000Z';
    for (const item of items) db.prepare('INSERT INTO leases (item_id, reviewer_id, expires_at) VALUES (?, 1, ?)').run(item, until);

    expect(migrate(db)[0]).toBe(24);
    const held = heldLeases(db, 1, '2026-01-01T00:00:00.000Z');
    expect(held).toHaveLength(2);
    expect(held.every((lease) => /^[0-9a-f]{16}$/.test(lease.token))).toBe(true);
    expect(new Set(held.map((lease) => lease.token)).size).toBe(2);
    // Another lease's token ends nothing; the lease's own ends it.
    const [first, second] = held;
    expect(deleteLease(db, first?.item_id ?? 0, 1, second?.token)).toBe(false);
    expect(deleteLease(db, first?.item_id ?? 0, 1, first?.token)).toBe(true);
    // Taken again while held, a lease keeps its token; a new lease gets a new one.
    expect(insertLease(db, second?.item_id ?? 0, 1, until).token).toBe(second?.token);
    expect(insertLease(db, first?.item_id ?? 0, 1, until).token).not.toBe(first?.token);
    db.close();
  });
});
