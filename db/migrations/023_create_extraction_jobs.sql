-- Table extraction as a durable job (issue 15 point 2): a curator's "Extract tables" over a split
-- or the Charts page's filter. The job keeps its scope, counters and owner like eval_runs, so a
-- server killed mid-job resumes it at the next start; its tasks are the charts it was planned
-- over, each finished in the transaction that stores the chart's table, so no stored chart is
-- asked for twice.
CREATE TABLE extraction_jobs (
  id INTEGER PRIMARY KEY,
  -- The scope as asked (NULL: any); force: unconfirmed extractions are read again too.
  split TEXT,
  chart_type TEXT,
  force INTEGER NOT NULL DEFAULT 0 CHECK (force IN (0, 1)),
  model TEXT NOT NULL,
  concurrency INTEGER NOT NULL DEFAULT 4,
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'paused', 'cancelled', 'done', 'failed')),
  tasks_total INTEGER NOT NULL DEFAULT 0,
  tasks_done INTEGER NOT NULL DEFAULT 0,
  tasks_failed INTEGER NOT NULL DEFAULT 0,
  -- Requests made (retries and repair turns included) and what they used, from each chart's calls.
  attempts INTEGER NOT NULL DEFAULT 0,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  -- 0 once a call's model was not in the price table: cost is then a lower bound, not "free".
  priced INTEGER NOT NULL DEFAULT 1 CHECK (priced IN (0, 1)),
  error TEXT,
  owner_pid INTEGER,
  owner_host TEXT,
  heartbeat_at TEXT,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  started_at TEXT,
  finished_at TEXT
);
CREATE INDEX extraction_jobs_status ON extraction_jobs(status);

CREATE TABLE extraction_tasks (
  job_id INTEGER NOT NULL REFERENCES extraction_jobs(id),
  chart_id INTEGER NOT NULL REFERENCES charts(id),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed', 'skipped')),
  -- For a failed (or skipped) chart: why, as the extractor or the table service said it.
  kind TEXT,
  error TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (job_id, chart_id)
) WITHOUT ROWID;
CREATE INDEX extraction_tasks_status ON extraction_tasks(job_id, status);
