-- An item's discussion and its curators' direct edits (issue 16, point 7).
-- A comment is never edited or deleted: the thread is what people read when they decided.
CREATE TABLE item_comments (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES hqa_items(id),
  author_id INTEGER NOT NULL REFERENCES users(id),
  body TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX item_comments_item ON item_comments(item_id, id);

-- The existing users a comment names as @username (each once), so they can be told.
CREATE TABLE comment_mentions (
  comment_id INTEGER NOT NULL REFERENCES item_comments(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (comment_id, user_id)
);
CREATE INDEX comment_mentions_user ON comment_mentions(user_id);

-- A curator's edit of an item's assumption, question or answer: who, when, why, and each
-- changed field's value before and after (`changes`: JSON, shared/api/item-discussion.ts
-- ItemFieldChangeSchema list). item_answer_history keeps review corrections and re-queues; it
-- has no reason and no assumption, so edits are kept here.
CREATE TABLE item_edits (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES hqa_items(id),
  editor_id INTEGER NOT NULL REFERENCES users(id),
  reason TEXT NOT NULL,
  changes TEXT NOT NULL,
  -- The item's status when edited: an edit of an accepted item re-ran the verifier.
  status_at_edit TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX item_edits_item ON item_edits(item_id, id);
