import { Router } from 'express';
import { IdParamSchema } from '../../shared/api/common';
import { CreateItemRequestSchema, ItemListQuerySchema } from '../../shared/api/items';
import { roleAtLeast } from '../../shared/domain/roles';
import type { AppContext } from '../app-context';
import { currentUser, requireRole } from '../auth/auth-middleware';
import { getQaWithChart } from '../charts/chart-queries';
import { HttpError, notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import { getProposal } from '../pool/pool-queries';
import { getItemDetail, listItems } from './item-queries';
import { createVerifiedItem } from './item-service';

export function itemRoutes(ctx: AppContext): Router {
  const router = Router();
  const reviewer = requireRole(ctx.db, 'reviewer');

  router.get('/', reviewer, (req, res) => {
    const query = parseInput(ItemListQuerySchema, req.query, 'query');
    const user = currentUser(req);
    // Blind review: which items someone else reviewed would tell a reviewer how they judged.
    if (query.reviewer_id !== undefined && query.reviewer_id !== user.id && !roleAtLeast(user.role, 'curator')) {
      throw new HttpError('forbidden', 'query.reviewer_id: a reviewer may list only the items they reviewed themselves', 'query.reviewer_id');
    }
    res.json(listItems(ctx.db, query));
  });

  router.get('/:id', reviewer, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const item = getItemDetail(ctx.db, id);
    if (!item) throw notFound(`item ${id}`);
    res.json({ item });
  });

  // Hand-written items: same fields and the same verification as generated ones.
  router.post('/', reviewer, (req, res) => {
    const body = parseInput(CreateItemRequestSchema, req.body, 'body');
    const source = getQaWithChart(ctx.db, body.qa_id);
    if (!source) throw new HttpError('bad_request', `body.qa_id: no factual QA ${body.qa_id}`, 'body.qa_id');
    // An item counts toward its proposal's pass rate, retirement and reflection: only curators may attach one.
    if (body.proposal_id !== undefined && !roleAtLeast(currentUser(req).role, 'curator')) {
      throw new HttpError('forbidden', 'body.proposal_id: only curators may attach a hand-written item to a proposal', 'body.proposal_id');
    }
    if (body.proposal_id !== undefined && !getProposal(ctx.db, body.proposal_id)) {
      throw new HttpError('bad_request', `body.proposal_id: no proposal ${body.proposal_id}`, 'body.proposal_id');
    }
    const { qa_id: _qa, proposal_id: proposalId, ...draft } = body;
    const item = createVerifiedItem(ctx.db, {
      source,
      draft: { ...draft, edit: draft.edit ?? null },
      origin: 'human',
      proposalId: proposalId ?? null,
      runId: null,
      model: null,
      createdBy: currentUser(req).id,
      idempotencyKey: null,
    });
    if (!item) throw new Error('hand-written item was not stored');
    ctx.publish('item.created', { item });
    const detail = getItemDetail(ctx.db, item.id);
    res.status(201).json({ item: detail });
  });
  return router;
}
