-- Expert review: leases (claims with expiry), reviews with the three criteria, the history of
-- an item's answer, and curators' adjudications.

-- A reviewer's claim on one review slot of an item. Expired rows are swept back to the queue.
CREATE TABLE leases (
  item_id INTEGER NOT NULL REFERENCES hqa_items(id),
  reviewer_id INTEGER NOT NULL REFERENCES users(id),
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (item_id, reviewer_id)
);
CREATE INDEX leases_expiry ON leases(expires_at);
CREATE INDEX leases_reviewer ON leases(reviewer_id);

-- Reviews are never deleted: an undo or a re-queue retracts them (with the reason).
CREATE TABLE reviews (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES hqa_items(id),
  reviewer_id INTEGER NOT NULL REFERENCES users(id),
  decision TEXT NOT NULL CHECK (decision IN ('accept', 'reject')),
  rationality INTEGER NOT NULL CHECK (rationality IN (0, 1)),
  rationality_note TEXT NOT NULL DEFAULT '',
  correctness INTEGER NOT NULL CHECK (correctness IN (0, 1)),
  correctness_note TEXT NOT NULL DEFAULT '',
  layout INTEGER NOT NULL CHECK (layout IN (0, 1)),
  layout_note TEXT NOT NULL DEFAULT '',
  feedback TEXT NOT NULL DEFAULT '',
  corrected_answer TEXT,
  corrected_question TEXT,
  complexity INTEGER CHECK (complexity BETWEEN 1 AND 5),
  time_spent_ms INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  retracted_at TEXT,
  retract_reason TEXT CHECK (retract_reason IN ('undo', 'requeue'))
);
-- One standing review per reviewer and item.
CREATE UNIQUE INDEX reviews_one_per_reviewer ON reviews(item_id, reviewer_id) WHERE retracted_at IS NULL;
CREATE INDEX reviews_reviewer ON reviews(reviewer_id, created_at);

-- Every change of an item's final answer or question, with who and why.
CREATE TABLE item_answer_history (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES hqa_items(id),
  answer TEXT NOT NULL,
  question TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('model', 'review', 'adjudication', 'undo', 'requeue')),
  review_id INTEGER REFERENCES reviews(id),
  user_id INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX item_answer_history_item ON item_answer_history(item_id);

CREATE TABLE adjudications (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES hqa_items(id),
  curator_id INTEGER NOT NULL REFERENCES users(id),
  decision TEXT NOT NULL CHECK (decision IN ('accept', 'reject')),
  note TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

ALTER TABLE hqa_items ADD COLUMN final_question TEXT;
ALTER TABLE hqa_items ADD COLUMN decided_at TEXT;
-- The queue walks items of one status in id order (mismatches first when asked).
CREATE INDEX hqa_items_queue ON hqa_items(status, id);
CREATE INDEX hqa_items_queue_mismatch ON hqa_items(status, verifier_match, id);
