import type { NewItem } from '../../server/items/item-service';

/** What a hand-written item has beside its QA and draft: no proposal, run, model, author or key. */
export const HUMAN_ITEM: Omit<NewItem, 'source' | 'draft'> = {
  origin: 'human',
  proposalId: null,
  runId: null,
  model: null,
  createdBy: null,
  idempotencyKey: null,
};
