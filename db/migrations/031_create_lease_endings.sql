-- Why a reviewer's lease was ended for them (issue 35): changing the reviews per item (k) may
-- decide an item they hold, or take away the slot their lease was on. The lease row is gone, so
-- without this their next submit or renewal could only say "no live lease"; with it, it says
-- what happened. One row per item and reviewer, removed when they lease the item again.
CREATE TABLE lease_endings (
  item_id INTEGER NOT NULL REFERENCES hqa_items(id) ON DELETE CASCADE,
  reviewer_id INTEGER NOT NULL REFERENCES users(id),
  reason TEXT NOT NULL CHECK (reason IN ('decided_by_k_change', 'slot_removed_by_k_change')),
  k_from INTEGER NOT NULL,
  k_to INTEGER NOT NULL,
  ended_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (item_id, reviewer_id)
);
