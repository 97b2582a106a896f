import type { Router } from 'express';
import { runsApi } from '../../shared/api/runs';
import type { AppContext } from '../app-context';
import { notFound } from '../domain-error';
import { apiRouter, handle } from '../http/handle';
import type { RunExecutor } from './run-executor';
import { getRun, listRunDeclines, listRunErrors, listRuns, publicRun } from './run-queries';

export function runRoutes(ctx: AppContext, executor: RunExecutor): Router {
  const api = apiRouter(ctx.db);

  handle(api, runsApi.list, 'reviewer', ({ query }) => {
    const { runs, total } = listRuns(ctx.db, query.page, query.page_size);
    return { runs: runs.map(publicRun), total };
  });
  handle(api, runsApi.get, 'reviewer', ({ params: { id } }) => {
    const run = getRun(ctx.db, id);
    if (!run) throw notFound(`run ${id}`);
    return { run: publicRun(run), errors: listRunErrors(ctx.db, id), declines: listRunDeclines(ctx.db, id) };
  });
  handle(api, runsApi.create, 'curator', ({ body, user }) => ({ run: executor.launch(body, user.id) }));
  handle(api, runsApi.pause, 'curator', ({ params: { id }, user }) => ({ run: executor.pause(id, user.id) }));
  handle(api, runsApi.resume, 'curator', async ({ params: { id }, user }) => ({ run: await executor.resume(id, user.id) }));
  handle(api, runsApi.cancel, 'curator', ({ params: { id }, user }) => ({ run: executor.cancel(id, user.id) }));
  return api.router;
}
