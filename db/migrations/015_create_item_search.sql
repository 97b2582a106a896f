-- Full-text search over an item's question, assumption and answer for the Items page (GET
-- /api/items?q=). An external-content FTS5 table: the text stays in hqa_items only, the index
-- is kept by triggers in the same transaction as every change. A migration that rebuilds
-- hqa_items must create these triggers again and rebuild the index.
CREATE VIRTUAL TABLE hqa_items_fts USING fts5(
  question, assumption, answer,
  content = 'hqa_items', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);

-- Items made before this migration.
INSERT INTO hqa_items_fts (hqa_items_fts) VALUES ('rebuild');

CREATE TRIGGER hqa_items_fts_insert AFTER INSERT ON hqa_items BEGIN
  INSERT INTO hqa_items_fts (rowid, question, assumption, answer) VALUES (NEW.id, NEW.question, NEW.assumption, NEW.answer);
END;

CREATE TRIGGER hqa_items_fts_delete AFTER DELETE ON hqa_items BEGIN
  INSERT INTO hqa_items_fts (hqa_items_fts, rowid, question, assumption, answer) VALUES ('delete', OLD.id, OLD.question, OLD.assumption, OLD.answer);
END;

-- Only when a searched text changes: a status change (every review) must not rewrite the index.
CREATE TRIGGER hqa_items_fts_update AFTER UPDATE OF question, assumption, answer ON hqa_items BEGIN
  INSERT INTO hqa_items_fts (hqa_items_fts, rowid, question, assumption, answer) VALUES ('delete', OLD.id, OLD.question, OLD.assumption, OLD.answer);
  INSERT INTO hqa_items_fts (rowid, question, assumption, answer) VALUES (NEW.id, NEW.question, NEW.assumption, NEW.answer);
END;

-- The Items page's "by chart" order pages by (chart_id, id); an index on chart_id carries the id.
CREATE INDEX hqa_items_chart ON hqa_items(chart_id);
