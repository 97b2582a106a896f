import type { Router } from 'express';
import { extractionJobsApi } from '../../shared/api/tables';
import type { AppContext } from '../app-context';
import { apiRouter, handle } from '../http/handle';
import type { ExtractionJobs } from './extraction-jobs';

/** Routes of `extractionJobsApi`: everyone sees a job's progress; curators plan, start and steer them. */
export function extractionJobRoutes(ctx: AppContext, jobs: ExtractionJobs): Router {
  const api = apiRouter(ctx.db);
  handle(api, extractionJobsApi.plan, 'curator', ({ query }) => jobs.plan({ split: query.split, chart_type: query.chart_type, force: query.force === 'true' }));
  handle(api, extractionJobsApi.list, 'reviewer', () => ({ jobs: jobs.list() }));
  handle(api, extractionJobsApi.create, 'curator', ({ body, user }) => ({ job: jobs.launch(body, user.id) }));
  handle(api, extractionJobsApi.pause, 'curator', ({ params: { id } }) => ({ job: jobs.pause(id) }));
  handle(api, extractionJobsApi.resume, 'curator', ({ params: { id } }) => ({ job: jobs.resume(id) }));
  handle(api, extractionJobsApi.cancel, 'curator', ({ params: { id } }) => ({ job: jobs.cancel(id) }));
  return api.router;
}
