import { Router } from 'express';
import { IdParamSchema } from '../../shared/api/common';
import { ReflectionBatchRequestSchema } from '../../shared/api/reflection';
import { roleAtLeast } from '../../shared/domain/roles';
import type { AppContext } from '../app-context';
import { currentUser, requireRole } from '../auth/auth-middleware';
import { notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import { getProposal } from '../pool/pool-queries';
import { listReflections, proposalFeedback } from './reflection-queries';
import type { ReflectionBatches } from './reflection-batches';
import { reflectionsForReviewer } from './reflection-view';
import type { FeedbackLoop } from './reflection-service';

export function reflectionRoutes(ctx: AppContext, loop: FeedbackLoop, batches: ReflectionBatches): Router {
  const router = Router();
  router.get('/proposals/:id', requireRole(ctx.db, 'reviewer'), (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    if (!getProposal(ctx.db, id)) throw notFound(`proposal ${id}`);
    const reflections = listReflections(ctx.db, id);
    const seen = roleAtLeast(currentUser(req).role, 'curator') ? reflections : reflectionsForReviewer(ctx.db, reflections);
    res.json({ reflections: seen, feedback: proposalFeedback(ctx.db, id) });
  });
  router.post('/proposals/:id', requireRole(ctx.db, 'curator'), async (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    res.status(201).json(await loop.reflect(id, 'manual', currentUser(req).id));
  });
  router.get('/batches', requireRole(ctx.db, 'reviewer'), (_req, res) => {
    res.json({ batches: batches.list() });
  });
  router.post('/batch', requireRole(ctx.db, 'curator'), (req, res) => {
    const { chart_type } = parseInput(ReflectionBatchRequestSchema, req.body, 'body');
    res.status(202).json({ batch: batches.start(chart_type, currentUser(req).id) });
  });
  return router;
}
