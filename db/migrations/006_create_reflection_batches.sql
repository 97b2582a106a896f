-- Reflection batches ("reflect on all with new feedback"): stored, so a batch survives a restart
-- and resumes where it stopped, and every client can find it.

CREATE TABLE reflection_batches (
  id INTEGER PRIMARY KEY,
  chart_type TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'done')),
  -- The proposals it reflects on, in order (JSON list of ids); the first `done` are done.
  proposal_ids TEXT NOT NULL,
  done INTEGER NOT NULL DEFAULT 0,
  revised INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  -- JSON list of { proposal_id, error }.
  errors TEXT NOT NULL DEFAULT '[]',
  owner_pid INTEGER,
  owner_host TEXT,
  heartbeat_at TEXT,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  finished_at TEXT
);
