-- migration: table rebuild
-- Evaluation conditions (issue 36 point 1): one run may ask several conditions — the paper's
-- Figure 1 side by side — among them two new ones: `counterfactual_image` (the factual question
-- on the item's edited table drawn) and `drawn_original` (the factual question on a drawing of
-- the original table made the same way, the style control). A result is stored per
-- (run, item, condition); an item whose condition cannot be asked (its edit cannot be drawn) is
-- stored `skipped` with the reason in `error`, counted in the run and left out of its score.
--
-- SQLite cannot alter a CHECK constraint or a primary key, so both tables are rebuilt as 032
-- rebuilt eval_runs. Old runs stay readable: `mode` is kept (a run's first condition) and
-- `conditions` becomes `[mode]`; every old result gets its run's mode as its condition.
-- `condition_scores` holds the frozen counts per condition of a finished run (JSON object),
-- beside `score`, the first condition's, which every reader of old runs already reads.

CREATE TABLE eval_runs_new (
  id INTEGER PRIMARY KEY,
  model TEXT NOT NULL,
  engine TEXT NOT NULL CHECK (engine IN ('openai', 'factual-baseline', 'imported')),
  mode TEXT NOT NULL CHECK (mode IN ('hqa', 'original', 'no_image', 'counterfactual_image', 'drawn_original')),
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'paused', 'done', 'cancelled', 'failed')),
  concurrency INTEGER NOT NULL DEFAULT 4,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  error TEXT,
  score TEXT,
  owner_pid INTEGER,
  owner_host TEXT,
  heartbeat_at TEXT,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  started_at TEXT,
  finished_at TEXT,
  batch INTEGER NOT NULL DEFAULT 0,
  -- The run's conditions in asking order (JSON array of condition names); the first is `mode`.
  conditions TEXT NOT NULL,
  -- Frozen score counts per condition (JSON object condition → counts), written when the run ends.
  condition_scores TEXT
);
INSERT INTO eval_runs_new (id, model, engine, mode, status, concurrency, prompt_tokens, completion_tokens, cost, error, score,
    owner_pid, owner_host, heartbeat_at, created_by, created_at, started_at, finished_at, batch, conditions, condition_scores)
  SELECT id, model, engine, mode, status, concurrency, prompt_tokens, completion_tokens, cost, error, score,
    owner_pid, owner_host, heartbeat_at, created_by, created_at, started_at, finished_at, batch, json_array(mode),
    CASE WHEN score IS NULL THEN NULL ELSE json_object(mode, json(score)) END
  FROM eval_runs;
DROP TABLE eval_runs;
ALTER TABLE eval_runs_new RENAME TO eval_runs;
CREATE INDEX eval_runs_model ON eval_runs(model, mode, status);

CREATE TABLE eval_results_new (
  run_id INTEGER NOT NULL REFERENCES eval_runs(id),
  item_id INTEGER NOT NULL REFERENCES hqa_items(id),
  condition TEXT NOT NULL CHECK (condition IN ('hqa', 'original', 'no_image', 'counterfactual_image', 'drawn_original')),
  position INTEGER NOT NULL,
  question TEXT NOT NULL,
  gold TEXT NOT NULL,
  answer_type TEXT NOT NULL CHECK (answer_type IN ('integer', 'decimal', 'boolean', 'text')),
  affects_answer INTEGER NOT NULL,
  original_label TEXT NOT NULL,
  -- `skipped`: the condition cannot be asked of this item (the reason in `error`); never scored.
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'answered', 'failed', 'skipped')),
  prediction TEXT,
  raw TEXT,
  correct INTEGER,
  biased INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  answered_at TEXT,
  question_relation TEXT NOT NULL DEFAULT 'same' CHECK (question_relation IN ('same', 'different')),
  PRIMARY KEY (run_id, item_id, condition)
) WITHOUT ROWID;
INSERT INTO eval_results_new (run_id, item_id, condition, position, question, gold, answer_type, affects_answer, original_label, status,
    prediction, raw, correct, biased, error, attempts, answered_at, question_relation)
  SELECT e.run_id, e.item_id, r.mode, e.position, e.question, e.gold, e.answer_type, e.affects_answer, e.original_label, e.status,
    e.prediction, e.raw, e.correct, e.biased, e.error, e.attempts, e.answered_at, e.question_relation
  FROM eval_results e JOIN eval_runs r ON r.id = e.run_id;
DROP TABLE eval_results;
ALTER TABLE eval_results_new RENAME TO eval_results;
CREATE INDEX eval_results_order ON eval_results(run_id, status, position);
