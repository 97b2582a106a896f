import { once } from 'node:events';
import express, { Router } from 'express';
import { IdParamSchema } from '../../shared/api/common';
import { EvalResultsQuerySchema, IMPORT_BODY_LIMIT, ImportEvalRequestSchema, StartEvalRequestSchema, UnsolvedQueryRequestSchema } from '../../shared/api/evaluations';
import { baselineOf, compareModels } from '../../shared/eval/compare';
import type { AppContext } from '../app-context';
import { currentUser, requireRole } from '../auth/auth-middleware';
import { HttpError, notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import type { EvalExecutor } from './eval-executor';
import { importPredictions, PredictionRowError } from './eval-import';
import { evalBreakdown, getEvalRun, iteratePredictions, listEvalRuns, listResults, publicEvalRun, unsolvedQuestions } from './eval-queries';

/** The import route takes a bigger body than the app's default JSON limit (every raw reply). */
export const EVAL_IMPORT_PATH = '/api/eval-runs/import';

export function evalRoutes(ctx: AppContext, executor: EvalExecutor): Router {
  const router = Router();
  const reviewer = requireRole(ctx.db, 'reviewer');
  const curator = requireRole(ctx.db, 'curator');
  const allRuns = () => listEvalRuns(ctx.db).map((run) => publicEvalRun(ctx.db, run));

  router.get('/', reviewer, (_req, res) => {
    res.json({ runs: allRuns() });
  });

  router.get('/comparison', reviewer, (_req, res) => {
    res.json({ rows: compareModels(allRuns()) });
  });

  router.get('/unsolved', reviewer, (req, res) => {
    const { limit } = parseInput(UnsolvedQueryRequestSchema, req.query, 'query');
    const models = compareModels(allRuns()).map((row) => ({ model: row.model, run_id: row.hqa_run_id }));
    res.json({ models, ...unsolvedQuestions(ctx.db, models.map((m) => m.run_id), limit) });
  });

  router.get('/:id', reviewer, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const record = getEvalRun(ctx.db, id);
    if (!record) throw notFound(`evaluation run ${id}`);
    const run = publicEvalRun(ctx.db, record);
    res.json({ run, baseline: baselineOf(run, allRuns()), breakdown: evalBreakdown(ctx.db, id) });
  });

  router.get('/:id/results', reviewer, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    if (!getEvalRun(ctx.db, id)) throw notFound(`evaluation run ${id}`);
    res.json(listResults(ctx.db, id, parseInput(EvalResultsQuerySchema, req.query, 'query')));
  });

  // GET /api/eval-runs/:id/predictions → `hqa eval`'s file, for `hqa score` or another tool
  router.get('/:id/predictions', reviewer, async (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    const run = getEvalRun(ctx.db, id);
    if (!run) throw notFound(`evaluation run ${id}`);
    res.type('application/json');
    res.attachment(`eval-run-${id}-${run.model.replace(/[^\w.-]+/g, '_')}-${run.mode}.predictions.json`);
    // A page at a time, waiting when the socket is full: a 100,000-question run stays small.
    let first = true;
    res.write('[');
    for (const rows of iteratePredictions(ctx.db, id)) {
      const chunk = rows.map((row) => JSON.stringify(row)).join(',\n');
      if (!res.write(`${first ? '\n' : ',\n'}${chunk}`)) await once(res, 'drain');
      first = false;
    }
    res.end('\n]\n');
  });

  router.post('/', curator, (req, res) => {
    const request = parseInput(StartEvalRequestSchema, req.body, 'body');
    const run = executor.createRun(request, currentUser(req).id);
    void executor.start(run.id);
    res.status(201).json({ run });
  });

  router.post('/import', curator, express.json({ limit: IMPORT_BODY_LIMIT }), (req, res) => {
    const request = parseInput(ImportEvalRequestSchema, req.body, 'body');
    let record;
    try {
      record = importPredictions(ctx.db, request, currentUser(req).id);
    } catch (error) {
      if (!(error instanceof PredictionRowError)) throw error;
      const field = `body.predictions.${error.index}.${error.field}`;
      throw new HttpError('bad_request', `${field}: ${error.reason}`, field);
    }
    const run = publicEvalRun(ctx.db, record);
    ctx.publish('eval.created', { run });
    res.status(201).json({ run });
  });

  router.post('/:id/cancel', curator, (req, res) => {
    const { id } = parseInput(IdParamSchema, req.params, 'params');
    res.json({ run: executor.cancel(id) });
  });
  return router;
}
