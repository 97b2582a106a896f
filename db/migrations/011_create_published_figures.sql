-- Published figures: a paper's Table 3 or Table 4 (shared/eval/paper-tables.ts), uploaded as
-- TSV by a curator and shown to the whole team beside the models evaluated here. The rows keep
-- the decimal text the table prints, so a figure recomputed from them is exact; whether a
-- printed figure follows from its own accuracies is computed when read, not stored.
CREATE TABLE published_tables (
  id INTEGER PRIMARY KEY,
  -- Where the figures come from, as the uploader named it ("Chart-HQA paper, arXiv 2503.04095").
  source TEXT NOT NULL,
  file_name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('table3', 'table4')),
  -- JSON array of the kind's rows (Table3RowSchema / Table4RowSchema), in the file's order.
  rows TEXT NOT NULL,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
