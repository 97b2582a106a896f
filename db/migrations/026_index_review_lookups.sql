-- Two lookups of every claim and queue count had no index of their own:
-- whether the caller ever reviewed an item (a retracted review counts too, which the partial
-- unique index reviews_one_per_reviewer leaves out, so each check walked all the caller's
-- reviews), and the items a caller wrote (hand-written items are few among generated ones).
CREATE INDEX reviews_item_reviewer ON reviews(item_id, reviewer_id);
CREATE INDEX hqa_items_author ON hqa_items(created_by) WHERE created_by IS NOT NULL;
