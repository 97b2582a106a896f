-- Extraction jobs estimate what their images cost (issue 37 point 4): endpoints count an image's
-- tokens in prompt_tokens without saying how many were the image's, so each request's image is
-- estimated by the model family's formula (server/llm/image-tokens.ts) and summed here, with its
-- price at the model's input price. `image_estimated` is 0 once a call's model had no known
-- formula (the sum is then a lower bound, shown as unknown), as `priced` is for the cost. Jobs
-- from before read 0 tokens, estimated: nothing was recorded about their images.
ALTER TABLE extraction_jobs ADD COLUMN image_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE extraction_jobs ADD COLUMN image_cost REAL NOT NULL DEFAULT 0;
ALTER TABLE extraction_jobs ADD COLUMN image_estimated INTEGER NOT NULL DEFAULT 1;
