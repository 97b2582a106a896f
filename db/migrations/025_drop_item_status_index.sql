-- hqa_items_status (status) holds the same entries as hqa_items_queue (status, id): an index
-- entry always ends with the rowid, which is the item id. Every status change (each claim, each
-- submit) updated both; the queue index answers every query the other did.
DROP INDEX hqa_items_status;
