-- Model evaluation runs over the accepted items, and each question's result. A run keeps a
-- snapshot of what it was scored against (question, gold, answer type), so later reviews do
-- not change a published figure.

CREATE TABLE eval_runs (
  id INTEGER PRIMARY KEY,
  model TEXT NOT NULL,
  engine TEXT NOT NULL CHECK (engine IN ('openai', 'factual-baseline', 'imported')),
  mode TEXT NOT NULL CHECK (mode IN ('hqa', 'original', 'no_image')),
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'cancelled', 'failed')),
  concurrency INTEGER NOT NULL DEFAULT 4,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  error TEXT,
  -- Score counts (JSON) frozen when the run ends; a running run is scored from its results.
  score TEXT,
  -- The process executing it, so a run whose process died is taken up at the next start.
  owner_pid INTEGER,
  owner_host TEXT,
  heartbeat_at TEXT,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  started_at TEXT,
  finished_at TEXT
);
CREATE INDEX eval_runs_model ON eval_runs(model, mode, status);

CREATE TABLE eval_results (
  run_id INTEGER NOT NULL REFERENCES eval_runs(id),
  item_id INTEGER NOT NULL REFERENCES hqa_items(id),
  -- Dataset order (the export's), for asking and listing.
  position INTEGER NOT NULL,
  question TEXT NOT NULL,
  gold TEXT NOT NULL,
  answer_type TEXT NOT NULL CHECK (answer_type IN ('integer', 'decimal', 'boolean', 'text')),
  affects_answer INTEGER NOT NULL,
  original_label TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'answered', 'failed')),
  prediction TEXT,
  raw TEXT,
  -- Verdicts of shared/eval/metrics.ts judgePrediction, stored so scores aggregate in SQL.
  correct INTEGER,
  biased INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  answered_at TEXT,
  PRIMARY KEY (run_id, item_id)
) WITHOUT ROWID;
CREATE INDEX eval_results_order ON eval_results(run_id, status, position);
