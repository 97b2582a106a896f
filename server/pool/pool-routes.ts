import { Router } from 'express';
import { IdParamSchema } from '../../shared/api/common';
import { CreateProposalRequestSchema, ProposalListQuerySchema, UpdateProposalRequestSchema } from '../../shared/api/pool';
import type { AppContext } from '../app-context';
import { currentUser, requireRole } from '../auth/auth-middleware';
import { notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import { getSettings } from '../settings/settings-queries';
import { getProposal, listProposals, proposalCounts } from './pool-queries';
import { addProposal, editProposal } from './pool-service';

export function poolRoutes(ctx: AppContext): Router {
  const router = Router();
  const reviewer = requireRole(ctx.db, 'reviewer');
  const curator = requireRole(ctx.db, 'curator');

  router.get('/', reviewer, (req, res) => {
    const query = parseInput(ProposalListQuerySchema, req.query, 'query');
    const { proposals, total } = listProposals(ctx.db, query);
    res.json({ proposals, total, page: query.page, page_size: query.page_size, counts: proposalCounts(ctx.db) });
  });

  router.get('/:id', reviewer, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const proposal = getProposal(ctx.db, id);
    if (!proposal) throw notFound(`proposal ${id}`);
    res.json({ proposal });
  });

  router.post('/', curator, (req, res) => {
    const body = parseInput(CreateProposalRequestSchema, req.body, 'body');
    const proposal = addProposal(
      ctx.db,
      { chartType: body.chart_type, text: body.text, origin: 'seed', parentIds: [], createdBy: currentUser(req).id },
      getSettings(ctx.db).rouge_threshold,
    );
    ctx.publish('proposal.created', { proposal });
    res.status(201).json({ proposal });
  });

  router.patch('/:id', curator, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const body = parseInput(UpdateProposalRequestSchema, req.body, 'body');
    const proposal = editProposal(ctx.db, id, body, getSettings(ctx.db).rouge_threshold);
    ctx.publish('proposal.updated', { proposal });
    res.json({ proposal });
  });
  return router;
}
