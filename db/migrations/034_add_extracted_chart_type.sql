-- migration: table rebuild
-- Chart types a table extraction names (issue 37 point 1): the vision model that reads an
-- image-only chart's table also says its type, orientation and stacking. The type is stored with
-- `type_source = 'extracted'` unless an annotation or a curator decided it, and is confirmed
-- when the table is (server/charts/type-state-queries.ts); the orientation and stacking travel
-- in the table's JSON (shared/table/model.ts `drawn`), as do units and estimated values.
--
-- SQLite cannot alter a CHECK constraint, so charts is rebuilt as 014 rebuilt it
-- (https://www.sqlite.org/lang_altertable.html, "making other kinds of table schema changes"):
-- the runner turns foreign keys off for a file starting with the marker above; this file creates
-- the new table with every column charts has now (014's, and 028's `type_evidence`), copies
-- every row with its id, drops the old table, renames the new one and re-creates its index; the
-- runner then runs foreign_key_check before committing. chart_images, factual_qas, hqa_items,
-- llm_calls, chart_group_members, extraction_tasks and chart_type_tasks refer to charts by name
-- and so to the rebuilt table. No trigger or view refers to charts.

CREATE TABLE charts_new (
  id INTEGER PRIMARY KEY,
  split TEXT NOT NULL,
  imgname TEXT NOT NULL,
  title TEXT,
  chart_type TEXT NOT NULL,
  type_source TEXT NOT NULL CHECK (type_source IN ('annotation', 'inferred', 'curator', 'extracted')),
  -- shared/table/model.ts DataTable as JSON; NULL for a chart known only by its image.
  data_table TEXT,
  row_count INTEGER NOT NULL,
  series_count INTEGER NOT NULL,
  -- Where the table came from: the benchmark's files, a vision model, or a curator's hand.
  table_source TEXT CHECK (table_source IN ('imported', 'extracted', 'curator')),
  -- A person (or a source that publishes tables, like ChartQA) vouches for the table.
  table_confirmed INTEGER NOT NULL DEFAULT 0 CHECK (table_confirmed IN (0, 1)),
  annotation TEXT,
  -- The image the source names (relative to --images or the group folder); NULL when the
  -- source has none of its own (ChartQA draws from the table). With no chart_images row
  -- this is the "image missing" state.
  image_ref TEXT,
  -- The benchmark's chart-level fields as published (shared/domain/benchmark-fields.ts).
  benchmark_fields TEXT,
  source_file TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  -- What decided an inferred type beyond the table's shape (028).
  type_evidence TEXT CHECK (type_evidence IN ('questions', 'vision')),
  UNIQUE (split, imgname),
  CHECK ((data_table IS NULL) = (table_source IS NULL)),
  CHECK (table_confirmed = 0 OR data_table IS NOT NULL)
);
INSERT INTO charts_new (id, split, imgname, title, chart_type, type_source, data_table, row_count, series_count,
    table_source, table_confirmed, annotation, image_ref, benchmark_fields, source_file, content_hash, imported_at, updated_at, type_evidence)
  SELECT id, split, imgname, title, chart_type, type_source, data_table, row_count, series_count,
    table_source, table_confirmed, annotation, image_ref, benchmark_fields, source_file, content_hash, imported_at, updated_at, type_evidence
  FROM charts;
DROP TABLE charts;
ALTER TABLE charts_new RENAME TO charts;
CREATE INDEX charts_type ON charts(chart_type);
