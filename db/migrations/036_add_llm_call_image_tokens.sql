-- Every vision request records what its images are estimated to cost (issue 37 point 4), as an
-- extraction job sums them (035): endpoints count an image's tokens in prompt_tokens without
-- saying how many were the image's. `images`: how many the request carried (0: text only);
-- `image_tokens`: their estimate by the model family's formula (server/llm/image-tokens.ts);
-- `image_cost`: those tokens at the call's input price (the batch price for a batch result).
-- NULL `images`: not recorded (calls from before, a request that says nothing of its images, a
-- batch result whose request another process built); NULL tokens or cost: no formula or no
-- price for the model.
ALTER TABLE llm_calls ADD COLUMN images INTEGER;
ALTER TABLE llm_calls ADD COLUMN image_tokens INTEGER;
ALTER TABLE llm_calls ADD COLUMN image_cost REAL;
