-- Prompt tokens an endpoint served from its prompt cache (OpenAI's
-- usage.prompt_tokens_details.cached_tokens): a part of prompt_tokens, not more tokens, priced
-- at the price table's cached input price where the model's entry gives one. Each call records
-- them, and a generation run sums them with its other usage. Calls made before this read 0:
-- nothing was recorded about them, and they were priced as uncached.
ALTER TABLE llm_calls ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0;
