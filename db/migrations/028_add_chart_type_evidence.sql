-- Chart types for real images (issue 32 point 6). A chart's type is decided by its annotation,
-- a curator, or inference; an inferred type of a chart with a stored image is confirmed only when
-- something beyond the table's shape decided it: the mark words of its questions ("blue bars",
-- "the red line", "largest slice") or a vision model's look at the image. Which one is
-- `type_evidence`; NULL means the table's shape alone (or a default, such as MultiChartQA's
-- 'other'). Whether a type is confirmed is derived, never stored
-- (server/charts/type-state-queries.ts): annotation and curator types are; an inferred type is
-- when it has evidence, or when the chart has no image (it is drawn from its table in that type,
-- so no picture can disagree). Rows before this migration have no evidence recorded: their
-- inferred types read as unconfirmed until a re-import reads their questions again.
ALTER TABLE charts ADD COLUMN type_evidence TEXT CHECK (type_evidence IN ('questions', 'vision'));

-- The chart a call was about (a vision model asked for its type); NULL for calls about no one chart.
ALTER TABLE llm_calls ADD COLUMN chart_id INTEGER REFERENCES charts(id);
CREATE INDEX llm_calls_chart ON llm_calls(chart_id) WHERE chart_id IS NOT NULL;

-- Asking the vision model for the types of a split's unconfirmed charts, as a durable job like
-- extraction_jobs (023): its charts are stored as tasks when it is created, each chart's type
-- stored in the transaction that settles its task, so a server killed mid-job resumes it and
-- asks only for the charts not answered yet.
CREATE TABLE chart_type_jobs (
  id INTEGER PRIMARY KEY,
  -- The split asked for (NULL: every split).
  split TEXT,
  model TEXT NOT NULL,
  concurrency INTEGER NOT NULL DEFAULT 4,
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'paused', 'cancelled', 'done', 'failed')),
  tasks_total INTEGER NOT NULL DEFAULT 0,
  tasks_done INTEGER NOT NULL DEFAULT 0,
  tasks_failed INTEGER NOT NULL DEFAULT 0,
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
CREATE INDEX chart_type_jobs_status ON chart_type_jobs(status);

CREATE TABLE chart_type_tasks (
  job_id INTEGER NOT NULL REFERENCES chart_type_jobs(id),
  chart_id INTEGER NOT NULL REFERENCES charts(id),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed', 'skipped')),
  -- What the model answered (a done task), and its hint: the orientation and stacking it saw.
  chart_type TEXT,
  hint TEXT,
  -- For a failed or skipped chart: why. A failed chart stays unconfirmed; the triage shows the reason.
  kind TEXT,
  error TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (job_id, chart_id)
) WITHOUT ROWID;
CREATE INDEX chart_type_tasks_status ON chart_type_tasks(job_id, status);
CREATE INDEX chart_type_tasks_chart ON chart_type_tasks(chart_id);
