import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseAtVersion, migrationsUpTo } from '../support/migrated-database';
import { migrate, type Db } from '../../db/database';
import { numberOrText } from '../../shared/domain/answer-kind';

/**
 * Migration 014 rebuilds `charts` and `factual_qas` (data_table nullable, wider sources). A
 * database made at 013 with rows in every table that points at them must come out with every
 * row, index, trigger and foreign key as it was.
 */

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-m014-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function databaseAt013(): Db {
  const db = databaseAtVersion(dir, 13);
  return db;
}

const LABELS = ['27.23', '1,200', '45%', 'Germany', '-3', '', '1e3', 'Not Applicable'];

function fill(db: Db): void {
  db.prepare("INSERT INTO users (id, username, role, password_hash) VALUES (1, 'ann', 'curator', 'x')").run();
  const chart = db.prepare(`INSERT INTO charts (id, split, imgname, title, chart_type, type_source, data_table, row_count, series_count, annotation, source_file, content_hash)
    VALUES (?, 'val', ?, ?, 'vertical_bar', 'inferred', ?, 2, 1, ?, ?, ?)`);
  chart.run(7, 'a.png', 'Revenue', '{"columns":[]}', '{"type":"v_bar"}', 'tables/a.csv', 'h1');
  chart.run(9, 'b.png', null, '{"columns":[1]}', null, 'tables/b.csv', 'h2');
  db.prepare('INSERT INTO chart_images (chart_id, png, sha256) VALUES (7, ?, ?)').run(Buffer.from([137, 80, 78, 71]), 'sha');
  const qa = db.prepare("INSERT INTO factual_qas (id, chart_id, query, label, source) VALUES (?, ?, ?, ?, 'human')");
  LABELS.forEach((label, i) => qa.run(100 + i, i % 2 === 0 ? 7 : 9, `question ${i}`, label));
  db.prepare(`INSERT INTO hqa_items (id, qa_id, chart_id, origin, created_by, assumption, question, answer, answer_type, rationale, affects_answer, program, verifier, status)
    VALUES (50, 100, 7, 'human', 1, 'Suppose', 'Q?', '1', 'integer', 'r', 1, 'p', '{}', 'accepted')`).run();
}

const rows = (db: Db, table: string, columns = '*') => db.prepare(`SELECT ${columns} FROM ${table} ORDER BY 1`).all();
const OLD_CHART_COLUMNS = 'id, split, imgname, title, chart_type, type_source, data_table, row_count, series_count, annotation, source_file, content_hash, imported_at, updated_at';

describe('migration 014 on a database made at 013', () => {
  it('keeps every row, index, trigger and foreign key; ChartQA tables become imported and confirmed', () => {
    const db = databaseAt013();
    fill(db);
    const before = {
      charts: rows(db, 'charts', OLD_CHART_COLUMNS),
      images: rows(db, 'chart_images'),
      qas: rows(db, 'factual_qas', 'id, chart_id, query, label, source, created_at'),
      items: rows(db, 'hqa_items'),
      counts: rows(db, 'item_status_counts'),
      triggers: rows(db, "sqlite_master WHERE type = 'trigger'", 'name, sql'),
      otherTables: rows(db, "sqlite_master WHERE type = 'table' AND name NOT IN ('charts', 'factual_qas')", 'name, sql'),
    };

    expect(migrate(db, migrationsUpTo(dir, 14))).toEqual([14]);

    expect(rows(db, 'charts', OLD_CHART_COLUMNS)).toEqual(before.charts);
    expect(rows(db, 'charts', 'table_source, table_confirmed, image_ref, benchmark_fields')).toEqual([
      { table_source: 'imported', table_confirmed: 1, image_ref: null, benchmark_fields: null },
      { table_source: 'imported', table_confirmed: 1, image_ref: null, benchmark_fields: null },
    ]);
    expect(rows(db, 'chart_images')).toEqual(before.images);
    expect(rows(db, 'factual_qas', 'id, chart_id, query, label, source, created_at')).toEqual(before.qas);
    expect(LABELS.map(numberOrText)).toEqual(['number', 'number', 'number', 'text', 'number', 'text', 'number', 'text']);
    // The SQL rule and the importer's rule agree on every label.
    expect(rows(db, 'factual_qas', 'id, label, answer_kind')).toEqual(LABELS.map((label, i) => ({ id: 100 + i, label, answer_kind: numberOrText(label) })));
    expect(rows(db, 'hqa_items')).toEqual(before.items);
    expect(rows(db, 'item_status_counts')).toEqual(before.counts);
    expect(rows(db, "sqlite_master WHERE type = 'trigger'", 'name, sql')).toEqual(before.triggers);
    // Tables that point at charts / factual_qas still name them (nothing was renamed under them).
    const after = new Map((rows(db, "sqlite_master WHERE type = 'table'", 'name, sql') as { name: string; sql: string }[]).map((t) => [t.name, t.sql]));
    for (const table of before.otherTables as { name: string; sql: string }[]) expect(after.get(table.name)).toBe(table.sql);
    const indexes = (rows(db, "sqlite_master WHERE type = 'index' AND tbl_name IN ('charts', 'factual_qas') AND sql IS NOT NULL", 'name') as { name: string }[]).map((i) => i.name);
    expect(indexes).toEqual(expect.arrayContaining(['charts_type', 'factual_qas_chart', 'factual_qas_same_question', 'factual_qas_external']));

    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() => db.prepare("INSERT INTO factual_qas (chart_id, query, label, source, answer_kind) VALUES (999, 'q', 'l', 'human', 'text')").run()).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare('DELETE FROM charts WHERE id = 7').run()).toThrow(/FOREIGN KEY/);
    // The old uniqueness of a ChartQA question still holds.
    expect(() => db.prepare("INSERT INTO factual_qas (chart_id, query, label, source, answer_kind) VALUES (7, 'question 0', '27.23', 'human', 'number')").run()).toThrow(/UNIQUE/);
    db.close();
  });

  it('allows a chart without a table, but never a confirmed one or a table without a source', () => {
    const db = databaseAt013();
    migrate(db);
    const insert = db.prepare(`INSERT INTO charts (split, imgname, chart_type, type_source, data_table, row_count, series_count, table_source, table_confirmed, source_file, content_hash)
      VALUES ('s', ?, 'other', 'inferred', ?, 0, 0, ?, ?, 'f', 'h')`);
    expect(insert.run('image-only.png', null, null, 0).changes).toBe(1);
    expect(() => insert.run('confirmed-nothing.png', null, null, 1)).toThrow(/CHECK/);
    expect(() => insert.run('sourceless.png', '{}', null, 0)).toThrow(/CHECK/);
    expect(insert.run('extracted.png', '{}', 'extracted', 0).changes).toBe(1);
    db.close();
  });
});
