import { immediateTransaction } from '../../db/transactions';
import type { User } from '../../shared/api/auth';
import { affectsAnswer } from '../../shared/generation/affects-answer';
import type { ItemGroup } from '../../shared/api/item-group';
import type { CreateItemRequest, ItemDetail } from '../../shared/api/items';
import { roleAtLeast } from '../../shared/domain/roles';
import type { AppContext } from '../app-context';
import { chartTableOfQa, getQaWithChart } from '../charts/chart-queries';
import { DomainError } from '../domain-error';
import { getProposal } from '../pool/pool-queries';
import { getItemDetailWithGroup } from './item-queries';
import { answerRuleFor, createVerifiedItem, itemChecks, verifyStoredItem } from './item-service';

/**
 * A person writes an item for a factual QA: same fields and the same verification as a
 * generated one; every client is told (`item.created`). Refusals name the body field.
 */
export function writeItem(ctx: AppContext, body: CreateItemRequest, author: User): { item: ItemDetail; group: ItemGroup | null } {
  // An item is verified on its chart's table: a chart known only by its image has none yet.
  const table = chartTableOfQa(ctx.db, body.qa_id);
  if (table && !table.has_table) throw new DomainError('bad_request', `body.qa_id: chart ${table.name} has no data table (image only); an item needs one to be verified on`, 'body.qa_id');
  const source = getQaWithChart(ctx.db, body.qa_id);
  if (!source) throw new DomainError('bad_request', `body.qa_id: no factual QA ${body.qa_id}`, 'body.qa_id');
  // An item counts toward its proposal's pass rate, retirement and reflection: only curators may attach one.
  if (body.proposal_id !== undefined && !roleAtLeast(author.role, 'curator')) {
    throw new DomainError('forbidden', 'body.proposal_id: only curators may attach a hand-written item to a proposal', 'body.proposal_id');
  }
  if (body.proposal_id !== undefined && !getProposal(ctx.db, body.proposal_id)) {
    throw new DomainError('bad_request', `body.proposal_id: no proposal ${body.proposal_id}`, 'body.proposal_id');
  }
  const { qa_id: _qa, proposal_id: proposalId, ...fields } = body;
  const edit = fields.edit ?? null;
  // Whether the assumption changes the answer is the verifier's finding, not the writer's claim.
  // Verifying here too (createItem verifies again, with the proposal) costs a millisecond per person's item.
  const verifier = verifyStoredItem(
    source,
    { edit, program: fields.program, answer: fields.answer, assumption: fields.assumption, question: fields.question, answerRule: answerRuleFor('human') },
    null,
    itemChecks(ctx.db),
  );
  const item = immediateTransaction(ctx.db, () => {
    const stored = createVerifiedItem(ctx.db, {
      source,
      draft: { ...fields, edit, affects_answer: affectsAnswer(verifier, fields.answer, source.qa.label) },
      origin: 'human',
      proposalId: proposalId ?? null,
      runId: null,
      model: null,
      createdBy: author.id,
      idempotencyKey: null,
    });
    if (stored) ctx.events.emit('item.created', { item: stored });
    return stored;
  });
  if (!item) throw new Error(`hand-written item for QA ${body.qa_id} was not stored`);
  const detail = getItemDetailWithGroup(ctx.db, item.id);
  if (!detail) throw new Error(`hand-written item ${item.id} vanished after it was stored`);
  return detail;
}
