-- The audit log: who did what and when (logins, role changes, settings, imports, runs, reviews,
-- adjudications, item edits, exports), for admins (GET /api/audit). Each entry is written in
-- the same transaction as the change it records, so a change rolled back leaves no entry.
-- Append-only: nothing updates or deletes a row.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  -- Null for the system or the CLI, and for a failed login by a name no user has.
  actor_id INTEGER REFERENCES users(id),
  -- An AuditAction (shared/api/audit.ts), e.g. 'review.submitted'.
  action TEXT NOT NULL,
  -- What the action changed ('user', 'item', 'run', 'split', 'settings', 'export'), and its id as text.
  target_type TEXT,
  target_id TEXT,
  -- JSON object: what the change was (the new role, the settings keys, counts).
  details TEXT NOT NULL DEFAULT '{}'
);

-- The filters page by id desc within an actor, an action or a target.
CREATE INDEX audit_log_actor ON audit_log(actor_id, id);
CREATE INDEX audit_log_action ON audit_log(action, id);
CREATE INDEX audit_log_target ON audit_log(target_type, target_id, id);
CREATE INDEX audit_log_at ON audit_log(at);
