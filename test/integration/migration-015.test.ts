import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseAtVersion } from '../support/migrated-database';
import { migrate } from '../../db/database';
import { ItemListQuerySchema } from '../../shared/api/items';
import { listItemsPage } from '../../server/items/item-list-queries';

/** Migration 015 indexes the items a database already holds, and the index then follows every insert, edit and delete. */

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-m015-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 015 on a database made at 014', () => {
  it('backfills the search index from the items there, then keeps it in step', () => {
    const db = databaseAtVersion(dir, 14);
    db.prepare("INSERT INTO users (id, username, role, password_hash) VALUES (1, 'ann', 'curator', 'x')").run();
    db.prepare(`INSERT INTO charts (id, split, imgname, title, chart_type, type_source, data_table, table_source, row_count, series_count, source_file, content_hash)
      VALUES (7, 'val', 'a.png', 'Revenue', 'vertical_bar', 'inferred', '{"columns":[]}', 'imported', 2, 1, 'tables/a.csv', 'h1')`).run();
    db.prepare("INSERT INTO factual_qas (id, chart_id, query, label, source, answer_kind) VALUES (100, 7, 'q', '1', 'human', 'number')").run();
    const insert = db.prepare(`INSERT INTO hqa_items (qa_id, chart_id, origin, assumption, question, answer, answer_type, rationale, affects_answer, program, verifier)
      VALUES (100, 7, 'human', ?, ?, ?, 'text', 'r', 1, 'p', '{}')`);
    const before = Number(insert.run('Suppose the moon were cheese.', 'What is the moon made of?', 'Gorgonzola').lastInsertRowid);

    // 015 first, then any later ones (they must not undo the index either).
    expect(migrate(db)[0]).toBe(15);
    const found = (q: string) => listItemsPage(db, ItemListQuerySchema.parse({ q })).items.map((item) => item.id);
    expect(found('cheese')).toEqual([before]);
    expect(found('gorgonzola')).toEqual([before]);

    const after = Number(insert.run('Suppose it rained.', 'How wet is Ulaanbaatar?', 'Very').lastInsertRowid);
    expect(found('ulaanbaatar')).toEqual([after]);
    db.prepare("UPDATE hqa_items SET answer = 'Brie' WHERE id = ?").run(before);
    expect(found('gorgonzola')).toEqual([]);
    expect(found('brie')).toEqual([before]);
    db.prepare('DELETE FROM hqa_items WHERE id = ?').run(after);
    expect(found('ulaanbaatar')).toEqual([]);
    // The index agrees with its content table (FTS5's own check).
    expect(() => db.prepare("INSERT INTO hqa_items_fts (hqa_items_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
    db.close();
  });
});
