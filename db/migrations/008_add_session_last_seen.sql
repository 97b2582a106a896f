-- Sessions end after idleness (the session_idle_minutes setting) as well as after their
-- absolute life (expires_at): that needs the time a session was last used. The server writes
-- it at most once a minute per session, not on every request.
ALTER TABLE sessions ADD COLUMN last_seen_at TEXT;
UPDATE sessions SET last_seen_at = created_at;
