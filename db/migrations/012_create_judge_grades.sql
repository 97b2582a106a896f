-- Grades an LLM judge gave (CharXiv-style scoring: an extracted answer and a 0/1 score per
-- answer), kept so scoring the same predictions again asks the judge nothing. A grade is one
-- judge model's, under one prompt text (its sha256), for one question, ground truth and
-- response: `key` is the sha256 of those five, so the unique index stays small whatever the
-- responses' length; the columns keep them readable. Only grades the judge gave are stored: a
-- reply that failed after its repair is asked again on the next scoring. Each call is also a
-- llm_calls row with purpose `judging`, where its tokens and cost are.
CREATE TABLE judge_grades (
  key TEXT PRIMARY KEY,
  judge_model TEXT NOT NULL,
  prompt_name TEXT NOT NULL,
  prompt_hash TEXT NOT NULL,
  question TEXT NOT NULL,
  ground_truth TEXT NOT NULL,
  response TEXT NOT NULL,
  extracted_answer TEXT NOT NULL,
  -- As the judge gave it: a score other than 0 or 1 is kept and counted as 0 by the metric.
  score REAL NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
