-- Gold items for reviewer calibration (issue 16 point 5). A curator marks an accepted item as
-- gold; the gold decision per criterion is what the accepted review said, copied at marking so
-- a later change of the item's reviews does not move the yardstick under earlier comparisons.
CREATE TABLE gold_items (
  item_id INTEGER PRIMARY KEY REFERENCES hqa_items(id) ON DELETE CASCADE,
  rationality INTEGER NOT NULL CHECK (rationality IN (0, 1)),
  correctness INTEGER NOT NULL CHECK (correctness IN (0, 1)),
  layout INTEGER NOT NULL CHECK (layout IN (0, 1)),
  marked_by INTEGER REFERENCES users(id),
  marked_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A reviewer's review of a gold item, compared with the gold decision. Kept apart from `reviews`:
-- it must not count toward the item's own decision, its consensus, pass rates or reflection.
-- The gold verdicts are copied so the agreement stays readable after the item is unmarked.
-- Ids start far above any review id: the submit response's review_id (for undo) never names a review.
CREATE TABLE gold_reviews (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES hqa_items(id) ON DELETE CASCADE,
  reviewer_id INTEGER NOT NULL REFERENCES users(id),
  decision TEXT NOT NULL CHECK (decision IN ('accept', 'reject')),
  rationality INTEGER NOT NULL CHECK (rationality IN (0, 1)),
  correctness INTEGER NOT NULL CHECK (correctness IN (0, 1)),
  layout INTEGER NOT NULL CHECK (layout IN (0, 1)),
  gold_rationality INTEGER NOT NULL CHECK (gold_rationality IN (0, 1)),
  gold_correctness INTEGER NOT NULL CHECK (gold_correctness IN (0, 1)),
  gold_layout INTEGER NOT NULL CHECK (gold_layout IN (0, 1)),
  feedback TEXT NOT NULL DEFAULT '',
  time_spent_ms INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (item_id, reviewer_id)
);
CREATE INDEX gold_reviews_reviewer ON gold_reviews(reviewer_id, created_at);
