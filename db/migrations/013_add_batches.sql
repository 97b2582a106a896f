-- Batch runs: requests sent as one JSONL file through the OpenAI Batch API (files + batches),
-- answered within a day at the batch price. A batch is stored the moment the provider has
-- created it, so a command or run that restarts re-attaches to it by `remote_id` instead of
-- paying for a second one.
CREATE TABLE llm_batches (
  id INTEGER PRIMARY KEY,
  -- What the requests are for: `evaluation`, `stage2`.
  purpose TEXT NOT NULL,
  model TEXT NOT NULL,
  -- The provider's batch id (`batch_…`) and its files.
  remote_id TEXT NOT NULL UNIQUE,
  input_file_id TEXT NOT NULL,
  output_file_id TEXT,
  error_file_id TEXT,
  -- submitted (created, not yet seen running), in_progress, downloading (finished there, results
  -- being read here), done (every result stored), failed, cancelled (both: no results to read).
  state TEXT NOT NULL CHECK (state IN ('submitted', 'in_progress', 'downloading', 'done', 'failed', 'cancelled')),
  -- The provider's own status and counts at the last poll.
  remote_status TEXT NOT NULL,
  requests_total INTEGER NOT NULL DEFAULT 0,
  requests_completed INTEGER NOT NULL DEFAULT 0,
  requests_failed INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  -- Whose batch it is: a server evaluation run, a generation run, or neither (`hqa eval`, whose
  -- predictions file's sidecar names the batch).
  eval_run_id INTEGER REFERENCES eval_runs(id),
  run_id INTEGER REFERENCES runs(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX llm_batches_eval_run ON llm_batches(eval_run_id);
CREATE INDEX llm_batches_run ON llm_batches(run_id);

-- A call answered inside a batch names it: cost figures can tell batch-priced calls apart.
ALTER TABLE llm_calls ADD COLUMN batch_id INTEGER REFERENCES llm_batches(id);
CREATE INDEX llm_calls_batch ON llm_calls(batch_id);

-- Runs started with the "batch" box ticked send their requests as one batch.
ALTER TABLE eval_runs ADD COLUMN batch INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN batch INTEGER NOT NULL DEFAULT 0;
