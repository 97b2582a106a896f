import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../db/database';
import { getEvalRun, transitionEvalRun } from '../../server/eval/eval-queries';
import { databaseAtVersion, migrationsUpTo } from '../support/migrated-database';

/**
 * Migration 032 rebuilds `eval_runs` so its status may be `paused`. A database made at 031 with
 * runs of every kind, and rows in each table that points at them, must come out with every
 * row, column value, index and foreign key as it was.
 */

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-m032-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const rows = (db: Db, table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all();

function fill(db: Db): void {
  db.prepare("INSERT INTO users (id, username, role, password_hash) VALUES (1, 'ann', 'curator', 'x')").run();
  db.prepare(`INSERT INTO charts (id, split, imgname, chart_type, type_source, data_table, row_count, series_count, table_source, table_confirmed, source_file, content_hash)
    VALUES (7, 'val', 'a.png', 'vertical_bar', 'inferred', '{"columns":[]}', 2, 1, 'imported', 1, 'tables/a.csv', 'h1')`).run();
  db.prepare("INSERT INTO factual_qas (id, chart_id, query, label, source, answer_kind) VALUES (100, 7, 'How many?', '3', 'human', 'number')").run();
  db.prepare(`INSERT INTO hqa_items (id, qa_id, chart_id, origin, created_by, assumption, question, answer, answer_type, rationale, affects_answer, program, verifier, status)
    VALUES (50, 100, 7, 'human', 1, 'Suppose', 'Q?', '1', 'integer', 'r', 1, 'p', '{}', 'accepted')`).run();
  const run = db.prepare(`INSERT INTO eval_runs (id, model, engine, mode, status, concurrency, prompt_tokens, completion_tokens, cost, error, score,
      owner_pid, owner_host, heartbeat_at, created_by, created_at, started_at, finished_at, batch)
    VALUES (@id, @model, @engine, 'hqa', @status, 2, 120, 30, 0.25, @error, @score, @pid, @host, @heartbeat, 1, '2025-01-02T03:04:05.000Z', @started, @finished, @batch)`);
  run.run({ id: 3, model: 'gpt-4o', engine: 'openai', status: 'done', error: null, score: '{"items":1}', pid: null, host: 'h', heartbeat: '2025-01-02T03:05:00.000Z', started: '2025-01-02T03:04:06.000Z', finished: '2025-01-02T03:06:00.000Z', batch: 1 });
  run.run({ id: 4, model: 'factual-baseline', engine: 'factual-baseline', status: 'running', error: null, score: null, pid: 4242, host: 'h', heartbeat: '2025-01-02T03:05:00.000Z', started: '2025-01-02T03:04:06.000Z', finished: null, batch: 0 });
  run.run({ id: 5, model: 'm', engine: 'imported', status: 'failed', error: 'boom', score: '{"items":0}', pid: null, host: null, heartbeat: null, started: null, finished: '2025-01-02T03:06:00.000Z', batch: 0 });
  db.prepare(`INSERT INTO eval_results (run_id, item_id, position, question, gold, answer_type, affects_answer, original_label, status, prediction, raw, correct, attempts)
    VALUES (4, 50, 0, 'Q?', '1', 'integer', 1, '3', 'answered', '3', 'Answer: 3', 0, 1)`).run();
  db.prepare(`INSERT INTO llm_calls (id, eval_run_id, purpose, engine, model, template, template_hash, outcome)
    VALUES (9, 3, 'evaluation', 'openai', 'gpt-4o', 'eval', 'hash', 'ok')`).run();
  db.prepare(`INSERT INTO llm_batches (id, purpose, model, remote_id, input_file_id, state, remote_status, eval_run_id)
    VALUES (2, 'evaluation', 'gpt-4o', 'batch_1', 'file_1', 'done', 'completed', 3)`).run();
}

describe('migration 032 on a database made at 031', () => {
  it('keeps every evaluation run as it was, and the rows that point at them, and lets a run pause', () => {
    const db = databaseAtVersion(dir, 31);
    fill(db);
    const before = {
      runs: rows(db, 'eval_runs'),
      results: rows(db, 'eval_results'),
      calls: rows(db, 'llm_calls'),
      batches: rows(db, 'llm_batches'),
      indexes: db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'eval_runs' ORDER BY name").all(),
    };
    expect(() => db.prepare("UPDATE eval_runs SET status = 'paused' WHERE id = 4").run()).toThrow(/CHECK constraint/);

    expect(migrate(db, migrationsUpTo(dir, 32))).toEqual([32]);

    expect(rows(db, 'eval_runs')).toEqual(before.runs);
    expect(rows(db, 'eval_results')).toEqual(before.results);
    expect(rows(db, 'llm_calls')).toEqual(before.calls);
    expect(rows(db, 'llm_batches')).toEqual(before.batches);
    expect(db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'eval_runs' ORDER BY name").all()).toEqual(before.indexes);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // The children still point at eval_runs, and foreign keys still hold.
    expect(() => db.prepare("INSERT INTO llm_calls (eval_run_id, purpose, engine, model, template, template_hash, outcome) VALUES (99, 'evaluation', 'openai', 'm', 't', 'h', 'ok')").run()).toThrow(
      /FOREIGN KEY/,
    );

    // Today's code reads today's schema: the later migrations first, then a run pauses.
    migrate(db);
    expect(transitionEvalRun(db, 4, ['running'], 'paused', 'storage_unavailable: database or disk is full')).toBe(true);
    expect(getEvalRun(db, 4)).toMatchObject({ status: 'paused', error: 'storage_unavailable: database or disk is full', items_answered: 1, finished_at: null });
    expect(() => db.prepare("UPDATE eval_runs SET status = 'stopped' WHERE id = 4").run()).toThrow(/CHECK constraint/);
    db.close();
  });
});
