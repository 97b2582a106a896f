-- The HAI generation pipeline: proposal pool, runs and their planned tasks, LLM call records,
-- and HQA items with their verifier verdicts.

-- Generation runs: a persisted job. Counters are updated in the same transaction as the work
-- they count, so a crash never leaves them out of step.
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  engine TEXT NOT NULL CHECK (engine IN ('offline', 'openai')),
  model TEXT NOT NULL,
  stage TEXT NOT NULL CHECK (stage IN ('proposals', 'items', 'both')),
  config TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'paused', 'cancelled', 'done', 'failed')),
  pool_round INTEGER NOT NULL DEFAULT 0,
  tasks_total INTEGER NOT NULL DEFAULT 0,
  tasks_done INTEGER NOT NULL DEFAULT 0,
  tasks_failed INTEGER NOT NULL DEFAULT 0,
  proposals_created INTEGER NOT NULL DEFAULT 0,
  items_created INTEGER NOT NULL DEFAULT 0,
  items_failed INTEGER NOT NULL DEFAULT 0,
  llm_calls INTEGER NOT NULL DEFAULT 0,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  stop_reason TEXT,
  -- Stage 2 tasks are planned once Stage 1 is done, so new proposals can be drawn.
  items_planned INTEGER NOT NULL DEFAULT 0,
  -- The process executing the run; a dead owner's run is resumed by the next server start.
  owner_pid INTEGER,
  owner_host TEXT,
  heartbeat_at TEXT,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  started_at TEXT,
  finished_at TEXT
);
CREATE INDEX runs_status ON runs(status);

CREATE TABLE proposals (
  id INTEGER PRIMARY KEY,
  chart_type TEXT NOT NULL,
  text TEXT NOT NULL,
  origin TEXT NOT NULL CHECK (origin IN ('seed', 'generated', 'revised')),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'retired', 'duplicate')),
  -- For a duplicate: the pool proposal it is too close to, and the ROUGE-L F it scored.
  duplicate_of INTEGER REFERENCES proposals(id),
  similarity REAL,
  run_id INTEGER REFERENCES runs(id),
  -- The pool round it belongs to: seeds 0; a revision is one round past its parent.
  round INTEGER NOT NULL DEFAULT 0,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX proposals_type_status ON proposals(chart_type, status);

-- Lineage: the seeds a generated proposal was sampled from, the original of a revision.
CREATE TABLE proposal_parents (
  proposal_id INTEGER NOT NULL REFERENCES proposals(id),
  parent_id INTEGER NOT NULL REFERENCES proposals(id),
  PRIMARY KEY (proposal_id, parent_id)
);
CREATE INDEX proposal_parents_parent ON proposal_parents(parent_id);

-- The planned units of a run. A run is resumable because its plan is stored: after a crash the
-- pending and running tasks are simply taken again. The key makes each unit happen once.
CREATE TABLE run_tasks (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  kind TEXT NOT NULL CHECK (kind IN ('proposals', 'item')),
  chart_type TEXT,
  qa_id INTEGER REFERENCES factual_qas(id),
  proposal_id INTEGER REFERENCES proposals(id),
  idempotency_key TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX run_tasks_run_status ON run_tasks(run_id, status);

-- Every model call (and every offline-engine generation), recorded before its output is parsed.
CREATE TABLE llm_calls (
  id INTEGER PRIMARY KEY,
  run_id INTEGER REFERENCES runs(id),
  task_id INTEGER REFERENCES run_tasks(id),
  purpose TEXT NOT NULL,
  engine TEXT NOT NULL,
  model TEXT NOT NULL,
  template TEXT NOT NULL,
  template_hash TEXT NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 1,
  raw_output TEXT,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  latency_ms INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'invalid', 'refused', 'error')),
  error TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX llm_calls_run ON llm_calls(run_id);

CREATE TABLE hqa_items (
  id INTEGER PRIMARY KEY,
  qa_id INTEGER NOT NULL REFERENCES factual_qas(id),
  chart_id INTEGER NOT NULL REFERENCES charts(id),
  proposal_id INTEGER REFERENCES proposals(id),
  run_id INTEGER REFERENCES runs(id),
  origin TEXT NOT NULL CHECK (origin IN ('llm', 'offline', 'human')),
  model TEXT,
  created_by INTEGER REFERENCES users(id),
  assumption TEXT NOT NULL,
  question TEXT NOT NULL,
  answer TEXT NOT NULL,
  answer_type TEXT NOT NULL CHECK (answer_type IN ('integer', 'decimal', 'boolean', 'text')),
  rationale TEXT NOT NULL,
  affects_answer INTEGER NOT NULL CHECK (affects_answer IN (0, 1)),
  edit TEXT,
  program TEXT NOT NULL,
  -- shared/table/verify.ts VerifierResult as JSON, and its match flag for filtering.
  verifier TEXT NOT NULL,
  verifier_match INTEGER,
  -- shared bias-guard flags as JSON (a list of codes), empty when none.
  bias_flags TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in_review', 'accepted', 'rejected', 'needs_adjudication')),
  final_answer TEXT,
  -- proposal × QA for generated items, so a resumed run never makes one twice.
  idempotency_key TEXT UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX hqa_items_qa ON hqa_items(qa_id);
CREATE INDEX hqa_items_run ON hqa_items(run_id);
CREATE INDEX hqa_items_status ON hqa_items(status);
CREATE INDEX hqa_items_proposal ON hqa_items(proposal_id);
