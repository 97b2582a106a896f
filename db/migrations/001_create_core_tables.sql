-- Users, sessions and settings: who may do what.
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  username TEXT NOT NULL UNIQUE COLLATE NOCASE,
  role TEXT NOT NULL CHECK (role IN ('admin', 'curator', 'reviewer')),
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  disabled_at TEXT
);

-- Only a hash of the session token is stored, so a leaked database holds no live sessions.
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Charts: one per (split, imgname). data_table is shared/table/model.ts DataTable as JSON.
-- content_hash covers the table, annotation and image so a re-import only writes what changed.
CREATE TABLE charts (
  id INTEGER PRIMARY KEY,
  split TEXT NOT NULL,
  imgname TEXT NOT NULL,
  title TEXT,
  chart_type TEXT NOT NULL,
  type_source TEXT NOT NULL CHECK (type_source IN ('annotation', 'inferred', 'curator')),
  data_table TEXT NOT NULL,
  row_count INTEGER NOT NULL,
  series_count INTEGER NOT NULL,
  annotation TEXT,
  source_file TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (split, imgname)
);
CREATE INDEX charts_type ON charts(chart_type);

-- The chart's own PNG, when the split had one; kept in the database so a moved split folder
-- loses nothing and an import writes chart and image in one transaction.
CREATE TABLE chart_images (
  chart_id INTEGER PRIMARY KEY REFERENCES charts(id),
  png BLOB NOT NULL,
  sha256 TEXT NOT NULL
);

CREATE TABLE factual_qas (
  id INTEGER PRIMARY KEY,
  chart_id INTEGER NOT NULL REFERENCES charts(id),
  query TEXT NOT NULL,
  label TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('human', 'augmented')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (chart_id, source, query, label)
);
CREATE INDEX factual_qas_chart ON factual_qas(chart_id);
