import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../db/database';
import { getEvalRun, listResults, publicEvalRun } from '../../server/eval/eval-queries';
import { EvalResultsQuerySchema } from '../../shared/api/evaluations';
import { databaseAtVersion, migrationsUpTo } from '../support/migrated-database';

/**
 * Migration 033 stores a result per (run, item, condition). A database made at 032 with runs of
 * each old mode must come out with each run's mode as its one condition, every result under it
 * with its values, its frozen score as its condition's, and the rows pointing at runs kept.
 */

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-m033-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const FROZEN = {
  items: 1,
  predicted: 1,
  missing: 0,
  correct: 1,
  by_answer_type: { integer: { items: 1, correct: 1 }, decimal: { items: 0, correct: 0 }, boolean: { items: 0, correct: 0 }, text: { items: 0, correct: 0 } },
  affects_answer: 1,
  biased: 0,
  same_question: 1,
  same_correct: 1,
  unknown_predictions: 0,
};

function fill(db: Db): void {
  db.prepare("INSERT INTO users (id, username, role, password_hash) VALUES (1, 'ann', 'curator', 'x')").run();
  db.prepare(`INSERT INTO charts (id, split, imgname, chart_type, type_source, data_table, row_count, series_count, table_source, table_confirmed, source_file, content_hash)
    VALUES (7, 'val', 'a.png', 'vertical_bar', 'inferred', '{"columns":[]}', 2, 1, 'imported', 1, 'tables/a.csv', 'h1')`).run();
  db.prepare("INSERT INTO factual_qas (id, chart_id, query, label, source, answer_kind) VALUES (100, 7, 'How many?', '3', 'human', 'number')").run();
  db.prepare(`INSERT INTO hqa_items (id, qa_id, chart_id, origin, created_by, assumption, question, answer, answer_type, rationale, affects_answer, program, verifier, status)
    VALUES (50, 100, 7, 'human', 1, 'Suppose', 'Q?', '1', 'integer', 'r', 1, 'p', '{}', 'accepted')`).run();
  const run = db.prepare(`INSERT INTO eval_runs (id, model, engine, mode, status, score, created_by, finished_at) VALUES (?, 'm', 'imported', ?, ?, ?, 1, ?)`);
  run.run(3, 'hqa', 'done', JSON.stringify(FROZEN), '2025-01-02T03:06:00.000Z');
  run.run(4, 'no_image', 'running', null, null);
  const result = db.prepare(`INSERT INTO eval_results (run_id, item_id, position, question, gold, answer_type, affects_answer, original_label, status, prediction, raw, correct, attempts)
    VALUES (?, 50, 0, 'Q?', '1', 'integer', 1, '3', 'answered', ?, 'raw', ?, 1)`);
  result.run(3, '1', 1);
  result.run(4, '3', 0);
  db.prepare(`INSERT INTO llm_calls (id, eval_run_id, purpose, engine, model, template, template_hash, outcome) VALUES (9, 3, 'evaluation', 'openai', 'm', 'eval', 'hash', 'ok')`).run();
}

describe('migration 033 on a database made at 032', () => {
  it("makes each old run's mode its one condition, keeping its results, score and the rows that point at it", () => {
    const db = databaseAtVersion(dir, 32);
    fill(db);
    const before = db.prepare('SELECT * FROM eval_results ORDER BY run_id').all() as Record<string, unknown>[];

    expect(migrate(db, migrationsUpTo(dir, 33))).toEqual([33]);

    const after = db.prepare('SELECT * FROM eval_results ORDER BY run_id').all() as Record<string, unknown>[];
    expect(after).toEqual(before.map((row) => ({ ...row, condition: row.run_id === 3 ? 'hqa' : 'no_image' })));
    expect(db.prepare('SELECT id, eval_run_id FROM llm_calls').all()).toEqual([{ id: 9, eval_run_id: 3 }]);

    const finished = getEvalRun(db, 3);
    if (!finished) throw new Error('run 3 is gone');
    expect(finished.conditions).toEqual(['hqa']);
    const shown = publicEvalRun(db, finished);
    expect(shown.score.counts).toEqual(FROZEN);
    expect(shown.conditions).toEqual([{ condition: 'hqa', items_total: 1, items_skipped: 0, score: shown.score }]);
    expect(shown.gaps).toEqual([]);

    const running = getEvalRun(db, 4);
    if (!running) throw new Error('run 4 is gone');
    expect(publicEvalRun(db, running).conditions.map((c) => [c.condition, c.score.counts.items, c.score.counts.correct])).toEqual([['no_image', 1, 0]]);
    expect(listResults(db, 4, 'no_image', EvalResultsQuerySchema.parse({})).results.map((r) => [r.condition, r.prediction])).toEqual([['no_image', '3']]);
    // The new conditions are allowed now.
    expect(() => db.prepare("UPDATE eval_runs SET mode = 'counterfactual_image' WHERE id = 4").run()).not.toThrow();
  });
});
