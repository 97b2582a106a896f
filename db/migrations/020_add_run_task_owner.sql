-- Who holds a run task while it runs: the process (pid on its host, as runs.owner_pid/owner_host)
-- that claimed it, and when that owner last proved it alive (set at the claim, refreshed with the
-- run's heartbeat). Two processes on one database file then never run the same task at once: a
-- task another live process holds is not requeued when its run is taken over, a result is stored
-- only by the task's holder, and a task whose holder stopped beating is claimed again once stale.
-- NULL owner: nobody holds it (pending, never claimed, or released).
ALTER TABLE run_tasks ADD COLUMN owner_pid INTEGER;
ALTER TABLE run_tasks ADD COLUMN owner_host TEXT;
ALTER TABLE run_tasks ADD COLUMN claimed_at TEXT;
