-- Evaluation asks models too: each of its requests is a llm_calls row like generation's, so its
-- cost is visible per call. run_id names a generation run (runs); an evaluation run lives in
-- eval_runs, so its calls name it here. `hqa eval` has no eval run: both stay null, purpose says.
ALTER TABLE llm_calls ADD COLUMN eval_run_id INTEGER REFERENCES eval_runs(id);
CREATE INDEX llm_calls_eval_run ON llm_calls(eval_run_id);
