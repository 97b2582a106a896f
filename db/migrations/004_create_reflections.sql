-- Reflection: reviewers' feedback on a proposal's items rewrites the proposal.

CREATE TABLE reflections (
  id INTEGER PRIMARY KEY,
  proposal_id INTEGER NOT NULL REFERENCES proposals(id),
  -- The revision it produced (active or kept as a duplicate); null when the call failed.
  revised_proposal_id INTEGER REFERENCES proposals(id),
  trigger TEXT NOT NULL CHECK (trigger IN ('auto', 'manual')),
  engine TEXT NOT NULL,
  model TEXT NOT NULL,
  -- The feedback it answered, as the model saw it (JSON list), and the model's own summary.
  feedback TEXT NOT NULL,
  addressed TEXT,
  status TEXT NOT NULL CHECK (status IN ('done', 'duplicate', 'failed')),
  error TEXT,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX reflections_proposal ON reflections(proposal_id);

-- Decided items of the proposal at its last reflection, so automatic reflection waits for new feedback.
ALTER TABLE proposals ADD COLUMN reflected_decisions INTEGER NOT NULL DEFAULT 0;
