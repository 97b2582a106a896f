-- Curators' own facts about a split (issue 16 point 4). A split is still named by
-- charts.split (its folder in exports, the key runs and filters use); this table adds what a
-- curator changes from the browser: a display label (renaming never rewrites charts.split,
-- so exports, runs and decisions that name the split keep their meaning) and an archive
-- mark. An archived split's charts, questions and items stay: it is only left out of new
-- runs' planning and of the review queue. A split without a row is live and unlabelled.
CREATE TABLE splits (
  name TEXT PRIMARY KEY,
  label TEXT,
  archived_at TEXT,
  archived_by INTEGER REFERENCES users(id),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
