-- migration: table rebuild
-- Charts and questions from benchmarks other than ChartQA (MultiChartQA, ChartBench, CharXiv):
-- a chart may have no data table (they publish images and questions only), a table has a
-- source and a confirmation state, charts form groups (MultiChartQA asks across 2-4 charts),
-- and a question keeps its answer kind and the benchmark's own fields.
--
-- charts.data_table becomes nullable and factual_qas.source widens: SQLite cannot alter a
-- column's constraints, so both tables are rebuilt following
-- https://www.sqlite.org/lang_altertable.html ("making other kinds of table schema changes"):
-- the runner turns foreign keys off for a file starting with the marker above, this file
-- creates the new table, copies every row with its id, drops the old one, renames the new one
-- and re-creates the indexes; the runner then runs foreign_key_check before committing.
-- No trigger or view refers to either table (013's triggers are on hqa_items).

CREATE TABLE charts_new (
  id INTEGER PRIMARY KEY,
  split TEXT NOT NULL,
  imgname TEXT NOT NULL,
  title TEXT,
  chart_type TEXT NOT NULL,
  type_source TEXT NOT NULL CHECK (type_source IN ('annotation', 'inferred', 'curator')),
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
  UNIQUE (split, imgname),
  CHECK ((data_table IS NULL) = (table_source IS NULL)),
  CHECK (table_confirmed = 0 OR data_table IS NOT NULL)
);
-- Every chart before this migration came from a ChartQA split with its table: imported, confirmed.
INSERT INTO charts_new (id, split, imgname, title, chart_type, type_source, data_table, row_count, series_count,
    table_source, table_confirmed, annotation, image_ref, benchmark_fields, source_file, content_hash, imported_at, updated_at)
  SELECT id, split, imgname, title, chart_type, type_source, data_table, row_count, series_count,
    'imported', 1, annotation, NULL, NULL, source_file, content_hash, imported_at, updated_at
  FROM charts;
DROP TABLE charts;
ALTER TABLE charts_new RENAME TO charts;
CREATE INDEX charts_type ON charts(chart_type);

-- A chart group: MultiChartQA's group folder, or charts a curator put together.
CREATE TABLE chart_groups (
  id INTEGER PRIMARY KEY,
  split TEXT NOT NULL,
  -- The group's name in its source (MultiChartQA: the folder name); unique within the split.
  group_key TEXT NOT NULL,
  name TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('multichartqa', 'curator')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (split, group_key)
);

CREATE TABLE chart_group_members (
  group_id INTEGER NOT NULL REFERENCES chart_groups(id),
  chart_id INTEGER NOT NULL REFERENCES charts(id),
  -- "The first chart is ..., the second ...": the order questions address the charts in.
  position INTEGER NOT NULL CHECK (position BETWEEN 1 AND 4),
  PRIMARY KEY (group_id, position),
  UNIQUE (group_id, chart_id)
);
CREATE INDEX chart_group_members_chart ON chart_group_members(chart_id);

CREATE TABLE factual_qas_new (
  id INTEGER PRIMARY KEY,
  -- For a question over a group: the group's first chart (so per-chart lists still show it).
  chart_id INTEGER NOT NULL REFERENCES charts(id),
  query TEXT NOT NULL,
  label TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('human', 'augmented', 'multichartqa', 'chartbench', 'charxiv')),
  answer_kind TEXT NOT NULL CHECK (answer_kind IN ('number', 'text', 'multiple_choice', 'multi_part', 'judgement_pair', 'free_text')),
  group_id INTEGER REFERENCES chart_groups(id),
  -- The benchmark's record id (MultiChartQA "group_165_question_0", ChartBench 17,
  -- CharXiv "descriptive:0_2", "reasoning:0"); NULL for ChartQA, whose questions have none.
  external_id TEXT,
  benchmark_fields TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- ChartQA questions are the same question when chart, source, text and answer match (as before);
-- the numbers-only rule matches server/import/answer-kind.ts (commas and % dropped first).
INSERT INTO factual_qas_new (id, chart_id, query, label, source, answer_kind, group_id, external_id, benchmark_fields, created_at)
  SELECT id, chart_id, query, label, source,
    CASE WHEN trim(replace(replace(label, ',', ''), '%', '')) <> ''
          AND trim(replace(replace(label, ',', ''), '%', '')) NOT GLOB '*[^0-9.eE+-]*'
         THEN 'number' ELSE 'text' END,
    NULL, NULL, NULL, created_at
  FROM factual_qas;
DROP TABLE factual_qas;
ALTER TABLE factual_qas_new RENAME TO factual_qas;
CREATE INDEX factual_qas_chart ON factual_qas(chart_id);
CREATE INDEX factual_qas_group ON factual_qas(group_id) WHERE group_id IS NOT NULL;
-- The old table's UNIQUE (chart_id, source, query, label), now for questions without a record id
-- (ChartBench repeats a text on one chart under different record ids).
CREATE UNIQUE INDEX factual_qas_same_question ON factual_qas(chart_id, source, query, label) WHERE external_id IS NULL;
CREATE UNIQUE INDEX factual_qas_external ON factual_qas(chart_id, source, external_id) WHERE external_id IS NOT NULL;
