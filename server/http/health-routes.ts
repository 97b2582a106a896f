import type { Router } from 'express';
import { healthApi } from '../../shared/api/health';
import type { AppContext } from '../app-context';
import { countCharts } from '../charts/chart-queries';
import { apiRouter, handle } from './handle';
import { hasModelEndpoint } from '../llm/model-roles';

export const VERSION = '0.1.0';

/** Public: what a load balancer or the Runs page asks, with no session. */
export function healthRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  handle(api, healthApi.get, 'public', () => ({
    status: 'ok',
    version: VERSION,
    engine: hasModelEndpoint(ctx.config) ? 'openai' : 'offline',
    charts: countCharts(ctx.db),
  }));
  return api.router;
}
