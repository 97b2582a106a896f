import { Router } from 'express';
import { IdParamSchema } from '../../shared/api/common';
import { RunListQuerySchema, StartRunRequestSchema } from '../../shared/api/runs';
import type { AppContext } from '../app-context';
import { currentUser, requireRole } from '../auth/auth-middleware';
import { notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import type { RunExecutor } from './run-executor';
import { getRun, listRunErrors, listRuns, publicRun } from './run-queries';

export function runRoutes(ctx: AppContext, executor: RunExecutor): Router {
  const router = Router();
  const reviewer = requireRole(ctx.db, 'reviewer');
  const curator = requireRole(ctx.db, 'curator');

  router.get('/', reviewer, (req, res) => {
    const query = parseInput(RunListQuerySchema, req.query, 'query');
    const { runs, total } = listRuns(ctx.db, query.page, query.page_size);
    res.json({ runs: runs.map(publicRun), total });
  });

  router.get('/:id', reviewer, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const run = getRun(ctx.db, id);
    if (!run) throw notFound(`run ${id}`);
    res.json({ run: publicRun(run), errors: listRunErrors(ctx.db, id) });
  });

  router.post('/', curator, (req, res) => {
    const config = parseInput(StartRunRequestSchema, req.body, 'body');
    const run = executor.createRun(config, currentUser(req).id);
    void executor.start(run.id);
    res.status(201).json({ run });
  });

  router.post('/:id/pause', curator, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    res.json({ run: executor.pause(id) });
  });
  router.post('/:id/resume', curator, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    res.json({ run: executor.resume(id) });
  });
  router.post('/:id/cancel', curator, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    res.json({ run: executor.cancel(id) });
  });
  return router;
}
