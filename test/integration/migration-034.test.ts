import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../db/database';
import { databaseAtVersion, migrationsUpTo } from '../support/migrated-database';

/**
 * Migration 034 rebuilds `charts` to let a type come from a table extraction. A database made at
 * 033 with rows in the tables that point at charts must come out with every row, column, index
 * and foreign key as it was.
 */

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-m034-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fill(db: Db): void {
  db.prepare("INSERT INTO users (id, username, role, password_hash) VALUES (1, 'ann', 'curator', 'x')").run();
  const chart = db.prepare(`INSERT INTO charts (id, split, imgname, title, chart_type, type_source, type_evidence, data_table, row_count, series_count,
      table_source, table_confirmed, annotation, image_ref, benchmark_fields, source_file, content_hash)
    VALUES (?, 'val', ?, ?, ?, ?, ?, ?, 2, 1, ?, ?, ?, ?, ?, ?, ?)`);
  chart.run(7, 'a.png', 'Revenue', 'vertical_bar', 'inferred', 'vision', '{"label_header":"Year","series":["A"],"rows":[]}', 'imported', 1, '{"type":"v_bar"}', null, null, 'tables/a.csv', 'h1');
  chart.run(9, 'b.png', null, 'other', 'inferred', null, null, null, 0, null, 'b.png', '{"source":"x"}', 'b.json', 'h2');
  db.prepare('INSERT INTO chart_images (chart_id, png, sha256) VALUES (9, ?, ?)').run(Buffer.from([137, 80, 78, 71]), 'sha');
  db.prepare("INSERT INTO factual_qas (id, chart_id, query, label, source, answer_kind) VALUES (100, 7, 'q', '1', 'human', 'number')").run();
  db.prepare(`INSERT INTO hqa_items (id, qa_id, chart_id, origin, created_by, assumption, question, answer, answer_type, rationale, affects_answer, program, verifier, status)
    VALUES (50, 100, 7, 'human', 1, 'Suppose', 'Q?', '1', 'integer', 'r', 1, 'p', '{}', 'accepted')`).run();
  db.prepare("INSERT INTO llm_calls (purpose, engine, model, template, template_hash, outcome, chart_id) VALUES ('chart_type', 'openai', 'm', 't', 'h', 'ok', 9)").run();
}

const rows = (db: Db, table: string, columns = '*') => db.prepare(`SELECT ${columns} FROM ${table} ORDER BY 1`).all();

describe('migration 034 on a database made at 033', () => {
  it('keeps every chart with every column, the tables pointing at charts, the index and the foreign keys', () => {
    const db = databaseAtVersion(dir, 33);
    fill(db);
    const before = {
      charts: rows(db, 'charts'),
      images: rows(db, 'chart_images'),
      calls: rows(db, 'llm_calls'),
      items: rows(db, 'hqa_items'),
      triggers: rows(db, "sqlite_master WHERE type = 'trigger'", 'name, sql'),
      otherTables: rows(db, "sqlite_master WHERE type = 'table' AND name <> 'charts'", 'name, sql'),
      indexes: rows(db, "sqlite_master WHERE type = 'index' AND tbl_name = 'charts'", 'name'),
    };

    expect(migrate(db, migrationsUpTo(dir, 34))).toEqual([34]);

    expect(rows(db, 'charts')).toEqual(before.charts);
    expect(rows(db, 'chart_images')).toEqual(before.images);
    expect(rows(db, 'llm_calls')).toEqual(before.calls);
    expect(rows(db, 'hqa_items')).toEqual(before.items);
    expect(rows(db, "sqlite_master WHERE type = 'trigger'", 'name, sql')).toEqual(before.triggers);
    const after = new Map((rows(db, "sqlite_master WHERE type = 'table'", 'name, sql') as { name: string; sql: string }[]).map((t) => [t.name, t.sql]));
    for (const table of before.otherTables as { name: string; sql: string }[]) expect(after.get(table.name)).toBe(table.sql);
    expect(rows(db, "sqlite_master WHERE type = 'index' AND tbl_name = 'charts'", 'name')).toEqual(before.indexes);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() => db.prepare('DELETE FROM charts WHERE id = 9').run()).toThrow(/FOREIGN KEY/);
    db.close();
  });

  it('takes an extracted type, and still refuses an unknown source and a confirmed chart without a table', () => {
    const db = databaseAtVersion(dir, 33);
    migrate(db, migrationsUpTo(dir, 34));
    const insert = db.prepare(`INSERT INTO charts (split, imgname, chart_type, type_source, data_table, row_count, series_count, table_source, table_confirmed, source_file, content_hash)
      VALUES ('s', ?, 'line', ?, ?, 0, 0, ?, ?, 'f', 'h')`);
    expect(insert.run('extracted.png', 'extracted', '{}', 'extracted', 0).changes).toBe(1);
    expect(() => insert.run('guessed.png', 'guessed', null, null, 0)).toThrow(/CHECK/);
    expect(() => insert.run('confirmed-nothing.png', 'extracted', null, null, 1)).toThrow(/CHECK/);
    db.close();
  });
});
