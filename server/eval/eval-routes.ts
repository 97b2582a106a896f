import { once } from 'node:events';
import express, { type Router } from 'express';
import { evalApi, IMPORT_BODY_LIMIT, publishedFiguresApi } from '../../shared/api/evaluations';
import { baselineOf, compareModels } from '../../shared/eval/compare';
import type { AppContext } from '../app-context';
import { DomainError, notFound } from '../domain-error';
import { apiRouter, handle } from '../http/handle';
import type { EvalExecutor } from './eval-executor';
import { importEvalRun } from './eval-import';
import { listPublished, removePublishedTable, uploadPublishedTable } from './published-figures';
import { runRuleAccuracies } from './rule-figures';
import { scoreFile } from './file-scorers';
import { providersFor } from '../llm/model-roles';
import { getSettings } from '../settings/settings-queries';
import { evalBreakdown, getEvalRun, iteratePredictions, listEvalRuns, listResults, publicEvalRun, unsolvedQuestions } from './eval-queries';

/** The import route takes a bigger body than the app's default JSON limit (every raw reply). */
export const EVAL_IMPORT_PATH = evalApi.import.path;
/** Scoring a file takes the whole dataset and predictions files: the same bigger body. */
export const SCORE_FILE_PATH = evalApi.scoreFile.path;

export function evalRoutes(ctx: AppContext, executor: EvalExecutor): Router {
  const api = apiRouter(ctx.db);
  const allRuns = () => listEvalRuns(ctx.db).map((run) => publicEvalRun(ctx.db, run));

  handle(api, evalApi.list, 'reviewer', () => ({ runs: allRuns() }));
  handle(api, evalApi.comparison, 'reviewer', () => ({ rows: compareModels(allRuns()) }));
  handle(api, evalApi.unsolved, 'reviewer', ({ query: { limit } }) => {
    const models = compareModels(allRuns()).map((row) => ({ model: row.model, run_id: row.hqa_run_id }));
    return { models, ...unsolvedQuestions(ctx.db, models.map((m) => m.run_id), limit) };
  });
  handle(api, evalApi.get, 'reviewer', ({ params: { id } }) => {
    const record = getEvalRun(ctx.db, id);
    if (!record) throw notFound(`evaluation run ${id}`);
    const run = publicEvalRun(ctx.db, record);
    return { run, baseline: baselineOf(run, allRuns()), breakdown: evalBreakdown(ctx.db, id, run.mode), rules: runRuleAccuracies(ctx.db, run) };
  });
  handle(api, evalApi.results, 'reviewer', ({ params: { id }, query }) => {
    const run = getEvalRun(ctx.db, id);
    if (!run) throw notFound(`evaluation run ${id}`);
    const condition = query.condition ?? run.mode;
    if (!run.conditions.includes(condition)) throw new DomainError('bad_request', `evaluation run ${id} did not ask condition ${condition} (it asked ${run.conditions.join(', ')})`, 'condition');
    return listResults(ctx.db, id, condition, query);
  });

  handle(api, evalApi.predictions, 'reviewer', async ({ params: { id }, res }) => {
    const run = getEvalRun(ctx.db, id);
    if (!run) throw notFound(`evaluation run ${id}`);
    res.type('application/json');
    res.attachment(`eval-run-${id}-${run.model.replace(/[^\w.-]+/g, '_')}-${run.mode}.predictions.json`);
    // A page at a time, waiting when the socket is full: a 100,000-question run stays small.
    let first = true;
    res.write('[');
    for (const rows of iteratePredictions(ctx.db, id, run.mode)) {
      const chunk = rows.map((row) => JSON.stringify(row)).join(',\n');
      if (!res.write(`${first ? '\n' : ',\n'}${chunk}`)) await once(res, 'drain');
      first = false;
    }
    res.end('\n]\n');
  });

  handle(api, evalApi.create, 'curator', ({ body, user }) => ({ run: executor.launch(body, user.id) }));

  handle(
    api,
    evalApi.import,
    'curator',
    ({ body, user }) => ({ run: importEvalRun(ctx, body, user.id) }),
    // The app's JSON parser skips this path: its bigger body is read only after the role check.
    { before: [express.json({ limit: IMPORT_BODY_LIMIT })] },
  );

  handle(api, evalApi.cancel, 'curator', ({ params: { id }, user }) => ({ run: executor.cancel(id, user.id) }));
  handle(api, evalApi.resume, 'curator', ({ params: { id }, user }) => ({ run: executor.resume(id, user.id) }));

  const scoreDeps = { db: () => ctx.db, providers: () => providersFor(getSettings(ctx.db), ctx.config) };
  handle(
    api,
    evalApi.scoreFile,
    'reviewer',
    ({ body: { format, ...input } }) => scoreFile(format, input, scoreDeps),
    { before: [express.json({ limit: IMPORT_BODY_LIMIT })] },
  );
  handle(api, publishedFiguresApi.list, 'reviewer', () => ({ tables: listPublished(ctx.db) }));
  handle(api, publishedFiguresApi.upload, 'curator', ({ body, user }) => ({ table: uploadPublishedTable(ctx.db, body, user.id) }));
  handle(api, publishedFiguresApi.remove, 'curator', ({ params: { id } }) => removePublishedTable(ctx.db, id));
  return api.router;
}
