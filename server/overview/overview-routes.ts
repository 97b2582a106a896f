import type { Router } from 'express';
import { overviewApi } from '../../shared/api/overview';
import type { AppContext } from '../app-context';
import { apiRouter, handle } from '../http/handle';
import { projectOverview } from './overview';

/** Curators land on the overview; reviewers work from Review and need none of it. */
export function overviewRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  handle(api, overviewApi.get, 'curator', () => projectOverview(ctx.db));
  return api.router;
}
