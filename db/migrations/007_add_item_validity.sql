-- Benchmark validity of an item: is it the factual question under an assumption, does the
-- assumption change the answer, does the item do what its proposal says, and why it was sent
-- back to review. NULL means "not known": items made before this migration are classified by
-- the server at start (server/items/item-validity.ts).

-- 'same': the factual question, with at most the grammatical change a hypothetical needs;
-- 'different': another question (kept out of the decline and bias rates).
ALTER TABLE hqa_items ADD COLUMN question_relation TEXT CHECK (question_relation IN ('same', 'different'));
-- The verifier ran the item's program on the unedited and the edited table: 1 when both give
-- the same answer (the assumption does not matter), NULL when either could not be computed.
ALTER TABLE hqa_items ADD COLUMN answer_unchanged INTEGER CHECK (answer_unchanged IN (0, 1));
-- Kept on purpose although the assumption leaves the answer unchanged (a control question).
ALTER TABLE hqa_items ADD COLUMN is_control INTEGER NOT NULL DEFAULT 0 CHECK (is_control IN (0, 1));
-- The item's edit performs the operation its proposal names; NULL without a proposal, or when
-- the proposal's operation cannot be read.
ALTER TABLE hqa_items ADD COLUMN proposal_consistent INTEGER CHECK (proposal_consistent IN (0, 1));
-- Why the item was sent back to review by the system (e.g. 'table_changed' after a re-import).
ALTER TABLE hqa_items ADD COLUMN requeue_reason TEXT;

CREATE INDEX hqa_items_relation ON hqa_items(question_relation);

-- An evaluation run's snapshot keeps the relation too, so a published decline or bias rate
-- says which questions it left out. Rows snapshotted before this migration count as 'same'
-- (the metrics of that time counted them).
ALTER TABLE eval_results ADD COLUMN question_relation TEXT NOT NULL DEFAULT 'same' CHECK (question_relation IN ('same', 'different'));
