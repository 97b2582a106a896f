-- Items per status, kept by triggers in the same transaction as every change. The review
-- queue's counts (queue.changed to every socket at most once a second, GET /api/review/queue
-- from every reviewer's queue bar) were a GROUP BY over all items: milliseconds of the
-- server's one thread per call on a large database. A migration that rebuilds hqa_items must
-- create these triggers again.
CREATE TABLE item_status_counts (
  status TEXT PRIMARY KEY,
  n INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO item_status_counts (status, n) SELECT status, COUNT(*) FROM hqa_items GROUP BY status;

CREATE TRIGGER hqa_items_count_insert AFTER INSERT ON hqa_items BEGIN
  INSERT INTO item_status_counts (status, n) VALUES (NEW.status, 1)
    ON CONFLICT (status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER hqa_items_count_delete AFTER DELETE ON hqa_items BEGIN
  UPDATE item_status_counts SET n = n - 1 WHERE status = OLD.status;
END;

CREATE TRIGGER hqa_items_count_status AFTER UPDATE OF status ON hqa_items WHEN OLD.status IS NOT NEW.status BEGIN
  UPDATE item_status_counts SET n = n - 1 WHERE status = OLD.status;
  INSERT INTO item_status_counts (status, n) VALUES (NEW.status, 1)
    ON CONFLICT (status) DO UPDATE SET n = n + 1;
END;
