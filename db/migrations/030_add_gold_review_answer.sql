-- A gold review keeps the reviewer's corrected answer (issue 33): with one review per item, a
-- reviewer's own accepted item shows their correction as its answer, so a gold item they
-- reviewed must show theirs too, or it would be told apart. Null: none given.
ALTER TABLE gold_reviews ADD COLUMN corrected_answer TEXT;
