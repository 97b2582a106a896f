-- Assignment (issue 16 point 6): curators give items to a reviewer or to a named queue of
-- reviewers; the claim serves a reviewer their assigned items first, then their queues' items,
-- and keeps items reserved for others out of the general queue.

-- A named queue ("night shift", "bar charts") and the reviewers in it.
CREATE TABLE review_queues (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE review_queue_members (
  queue_id INTEGER NOT NULL REFERENCES review_queues(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (queue_id, user_id)
);
-- The claim asks "which queues am I in" on every call.
CREATE INDEX review_queue_members_user ON review_queue_members (user_id, queue_id);

-- One assignment per item: to one reviewer or to one queue, never both. A filter assigned by a
-- curator is resolved to its item ids when assigned, so an item that starts to match later is
-- not assigned by it. Unassigning deletes the row: the item is the general queue's again.
CREATE TABLE item_assignments (
  item_id INTEGER PRIMARY KEY REFERENCES hqa_items(id) ON DELETE CASCADE,
  reviewer_id INTEGER REFERENCES users(id),
  queue_id INTEGER REFERENCES review_queues(id) ON DELETE CASCADE,
  assigned_by INTEGER REFERENCES users(id),
  assigned_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK ((reviewer_id IS NULL) != (queue_id IS NULL))
);
CREATE INDEX item_assignments_reviewer ON item_assignments (reviewer_id, item_id) WHERE reviewer_id IS NOT NULL;
CREATE INDEX item_assignments_queue ON item_assignments (queue_id, item_id) WHERE queue_id IS NOT NULL;

-- Retired items: taken out of review (the claim and the queue's size) without deleting anything
-- a decision depends on; reviews, answers and gold marks stay. A flag table rather than a new
-- status, so the status counts (migration 010) and every status reader stay as they are.
-- Deleting the row restores the item.
CREATE TABLE retired_items (
  item_id INTEGER PRIMARY KEY REFERENCES hqa_items(id) ON DELETE CASCADE,
  retired_by INTEGER REFERENCES users(id),
  retired_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  reason TEXT NOT NULL DEFAULT ''
);
