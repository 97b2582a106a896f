import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import type { EvalMode, EvalRun, PredictionRow } from '../../shared/api/evaluations';
import { exportItemId } from '../../shared/export/chart-hqa';
import type { AppContext } from '../app-context';
import { DomainError } from '../domain-error';
import type { DomainEventEmitter } from '../events/event-bus';
import { auditedEvents } from '../events/subscribers';
import { failUnanswered, getEvalRun, insertEvalQuestions, insertEvalRun, publicEvalRun, recordAnswer, transitionEvalRun, type EvalRunRecord } from './eval-queries';
import { evalQuestions, judgeAnswer } from './eval-snapshot';

/**
 * A row of the predictions that cannot be stored. Its message and field name the row as the
 * import route's body does (`body.predictions.3.id`); the CLI names it in its file's words from
 * `index`, `key` and `reason` (`predictions[3].id`).
 */
export class PredictionRowError extends DomainError {
  constructor(
    readonly index: number,
    readonly key: 'id',
    readonly reason: string,
  ) {
    const field = `body.predictions.${index}.${key}`;
    super('bad_request', `${field}: ${reason}`, field);
  }
}

/**
 * Stores predictions made elsewhere (`hqa eval` on another machine) as a finished run over the
 * accepted items: each id must be the export id of an accepted item; an accepted item without a
 * prediction counts as missing (wrong), as `hqa score` counts it. All or nothing: a bad row
 * stores nothing. `events`: where it says so (`eval_run.imported`); by default a bus only the audit
 * log listens to, for the CLI.
 */
export function importPredictions(
  db: Db,
  input: { model: string; mode: EvalMode; predictions: PredictionRow[] },
  createdBy: number | null,
  events: DomainEventEmitter = auditedEvents(db),
): EvalRunRecord {
  return immediateTransaction(db, () => {
    const runId = insertEvalRun(db, { model: input.model, engine: 'imported', mode: input.mode, concurrency: 1, status: 'running', createdBy });
    const questions = [...evalQuestions(db, [input.mode])];
    if (questions.length === 0) throw new DomainError('conflict', 'there are no accepted items to score predictions against yet');
    insertEvalQuestions(db, runId, questions);
    const byId = new Map(questions.map((question) => [exportItemId(question.item_id), question]));
    const seen = new Set<string>();
    input.predictions.forEach((row, index) => {
      const question = byId.get(row.id);
      if (!question) throw new PredictionRowError(index, 'id', `"${row.id}" is not an accepted item of this workbench`);
      if (seen.has(row.id)) throw new PredictionRowError(index, 'id', `duplicate id "${row.id}"`);
      seen.add(row.id);
      // A question its condition skipped (an edit that cannot be drawn) stays skipped, whatever was predicted for it.
      if (question.skipped !== undefined) return;
      const verdict = judgeAnswer(question, row.prediction);
      recordAnswer(db, runId, question, { failed: false, prediction: row.prediction, raw: row.raw ?? null, ...verdict, error: null });
    });
    failUnanswered(db, runId, 'no prediction in the imported file');
    events.emit('eval_run.imported', { actor_id: createdBy, run_id: runId, model: input.model, mode: input.mode, predictions: input.predictions.length });
    transitionEvalRun(db, runId, ['running'], 'done');
    const run = getEvalRun(db, runId);
    if (!run) throw new Error(`imported evaluation run ${runId} vanished`);
    return run;
  });
}

/** The server's import: stored as `importPredictions` stores it (its `eval_run.imported` tells every client). */
export function importEvalRun(ctx: AppContext, input: { model: string; mode: EvalMode; predictions: PredictionRow[] }, createdBy: number): EvalRun {
  return publicEvalRun(ctx.db, importPredictions(ctx.db, input, createdBy, ctx.events));
}
