import type { Router } from 'express';
import { analyticsApi } from '../../shared/api/analytics';
import type { AppContext } from '../app-context';
import { notFound } from '../domain-error';
import { apiRouter, handle } from '../http/handle';
import { ablation } from './ablation';
import { coverage } from './coverage';
import { poolAnalytics, proposalLineage } from './pool-analytics';

/**
 * Read-only analytics. Pool figures and lineage are what the Pool page already shows every
 * reviewer; the comparison (costs, reviewer time) and the coverage map steer the team's work,
 * so they are for curators.
 */
export function analyticsRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  handle(api, analyticsApi.pool, 'reviewer', () => poolAnalytics(ctx.db));
  handle(api, analyticsApi.lineage, 'reviewer', ({ params: { id } }) => {
    const lineage = proposalLineage(ctx.db, id);
    if (!lineage) throw notFound(`proposal ${id}`);
    return lineage;
  });
  handle(api, analyticsApi.ablation, 'curator', ({ query }) => ablation(ctx.db, query.reviewer_hourly_rate));
  handle(api, analyticsApi.coverage, 'curator', ({ query }) => coverage(ctx.db, query.limit));
  return api.router;
}
