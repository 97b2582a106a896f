import { Router } from 'express';
import { AblationQuerySchema, CoverageQuerySchema } from '../../shared/api/analytics';
import { IdParamSchema } from '../../shared/api/common';
import type { AppContext } from '../app-context';
import { requireRole } from '../auth/auth-middleware';
import { notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import { ablation } from './ablation';
import { coverage } from './coverage';
import { poolAnalytics, proposalLineage } from './pool-analytics';

/**
 * Read-only analytics. Pool figures and lineage are what the Pool page already shows every
 * reviewer; the comparison (costs, reviewer time) and the coverage map steer the team's work,
 * so they are for curators.
 */
export function analyticsRoutes(ctx: AppContext): Router {
  const router = Router();
  const reviewer = requireRole(ctx.db, 'reviewer');
  const curator = requireRole(ctx.db, 'curator');

  router.get('/pool', reviewer, (_req, res) => {
    res.json(poolAnalytics(ctx.db));
  });

  router.get('/lineage/:id', reviewer, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const lineage = proposalLineage(ctx.db, id);
    if (!lineage) throw notFound(`proposal ${id}`);
    res.json(lineage);
  });

  router.get('/ablation', curator, (req, res) => {
    const query = parseInput(AblationQuerySchema, req.query, 'query');
    res.json(ablation(ctx.db, query.reviewer_hourly_rate));
  });

  router.get('/coverage', curator, (req, res) => {
    const query = parseInput(CoverageQuerySchema, req.query, 'query');
    res.json(coverage(ctx.db, query.limit));
  });
  return router;
}
