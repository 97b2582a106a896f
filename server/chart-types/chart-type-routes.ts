import type { Router } from 'express';
import { chartTypeJobsApi, chartTypesApi, TRIAGE_BATCH } from '../../shared/api/chart-types';
import type { AppContext } from '../app-context';
import { apiRouter, handle } from '../http/handle';
import { triageCharts, typeStateCounts } from './chart-type-queries';
import type { ChartTypeJobs } from './chart-type-jobs';
import { undoChartTypeDecision } from './type-decisions';

/** Routes of `chartTypesApi` (curators triage and undo) and `chartTypeJobsApi` (everyone sees a job's progress; curators start and cancel). */
export function chartTypeRoutes(ctx: AppContext, jobs: ChartTypeJobs): Router {
  const api = apiRouter(ctx.db);
  handle(api, chartTypesApi.triage, 'curator', ({ query }) => ({ charts: triageCharts(ctx.db, query.split, TRIAGE_BATCH), counts: typeStateCounts(ctx.db, query.split) }));
  handle(api, chartTypesApi.undo, 'curator', ({ params: { id }, user }) => ({ chart: undoChartTypeDecision(ctx, id, user.id) }));
  handle(api, chartTypeJobsApi.plan, 'curator', ({ query }) => jobs.plan(query));
  handle(api, chartTypeJobsApi.list, 'reviewer', () => ({ jobs: jobs.list() }));
  handle(api, chartTypeJobsApi.create, 'curator', ({ body, user }) => ({ job: jobs.launch(body, user.id) }));
  handle(api, chartTypeJobsApi.cancel, 'curator', ({ params: { id } }) => ({ job: jobs.cancel(id) }));
  return api.router;
}
