-- Pairing that can work (issue 32 point 1). A model's Stage 2 task is paired with a proposal
-- whose operation can change its question's answer, decided by the server before its request is
-- built (server/generation/pairing.ts), and the decision is kept with the task so that a retry,
-- a repair turn or a batch file read back offers exactly what the first request offered: JSON of
-- shared/generation/pairing.ts's PairingSchema ('paired' with a proposal, 'choose' with the
-- candidates listed, or 'none' with why). NULL: not decided yet, or a task that needs no
-- decision (Stage 1; the offline engine pairs itself). Tasks before this read NULL and are
-- paired when they are next worked.
ALTER TABLE run_tasks ADD COLUMN pairing TEXT;

-- Why a task ended without an item and without failing: the model, offered candidates, declined
-- (no listed proposal can change the answer), or the server found no proposal whose operation
-- can ('none': no request was sent). Such a task is 'done', never retried and never reopened.
ALTER TABLE run_tasks ADD COLUMN decline_reason TEXT;

-- A run's declined tasks, counted apart from items_failed and tasks_failed (they are in tasks_done).
ALTER TABLE runs ADD COLUMN items_declined INTEGER NOT NULL DEFAULT 0;
