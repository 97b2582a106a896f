-- migration: table rebuild
-- Evaluation runs pause (issue 34 point 3): a run whose database cannot be written (a full disk,
-- a read-only file, an I/O error) stops as `paused` with its reason in `error`
-- (`storage_unavailable: …`) and is resumed once there is room, as generation runs are, instead
-- of failing for good and marking every question not yet asked as failed.
--
-- SQLite cannot alter a CHECK constraint, so eval_runs is rebuilt as 014 rebuilt charts
-- (https://www.sqlite.org/lang_altertable.html, "making other kinds of table schema changes"):
-- the runner turns foreign keys off for a file starting with the marker above; this file creates
-- the new table with every column eval_runs has now (005's, and 013's `batch`), copies every row
-- with its id, drops the old table, renames the new one and re-creates its index; the runner then
-- runs foreign_key_check before committing. eval_results, llm_calls and llm_batches refer to
-- eval_runs by name and so to the rebuilt table. No trigger or view refers to eval_runs.

CREATE TABLE eval_runs_new (
  id INTEGER PRIMARY KEY,
  model TEXT NOT NULL,
  engine TEXT NOT NULL CHECK (engine IN ('openai', 'factual-baseline', 'imported')),
  mode TEXT NOT NULL CHECK (mode IN ('hqa', 'original', 'no_image')),
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'paused', 'done', 'cancelled', 'failed')),
  concurrency INTEGER NOT NULL DEFAULT 4,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  -- Why a failed run failed, or why a paused one stopped (`storage_unavailable: <SQLite's words>`).
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
  finished_at TEXT,
  -- Asked through the OpenAI Batch API (013).
  batch INTEGER NOT NULL DEFAULT 0
);
INSERT INTO eval_runs_new (id, model, engine, mode, status, concurrency, prompt_tokens, completion_tokens, cost, error, score,
    owner_pid, owner_host, heartbeat_at, created_by, created_at, started_at, finished_at, batch)
  SELECT id, model, engine, mode, status, concurrency, prompt_tokens, completion_tokens, cost, error, score,
    owner_pid, owner_host, heartbeat_at, created_by, created_at, started_at, finished_at, batch
  FROM eval_runs;
DROP TABLE eval_runs;
ALTER TABLE eval_runs_new RENAME TO eval_runs;
CREATE INDEX eval_runs_model ON eval_runs(model, mode, status);
